/**
 * Webhook management (issue 18). The target URL is checked here — scheme, credentials, and every
 * address its host resolves to (no SSRF) — because that needs the resolver; the decider keeps
 * the rules that need nothing else. The signing secret is generated here, shown once, and
 * recorded only sealed (src/webhooks/secrets.ts).
 */
import { InvalidArgument } from '../../../commands/shared/errors.js';
import {
  type OAuthGrant,
  type WebhookEventType,
  webhookDecider,
  webhookStreamId,
} from '../../../commands/webhook/index.js';
import { getProduct } from '../../../projections/products/index.js';
import { enabledWebhooksUnderGrant } from '../../../projections/webhooks/index.js';
import { checkTarget, RefusedTarget, type TargetPolicy } from '../../webhooks/delivery/target.js';
import { newSigningSecret, type SecretBox } from '../../webhooks/secrets.js';
import { takePlace } from './webhook-places.js';
import {
  type CommandContext,
  type FeedbackDeps,
  hexIdFor,
  keyedBy,
  latest,
  withoutKey,
} from './deps.js';

/** How long a replaced secret keeps signing after rotate_webhook_secret. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface WebhookDeps extends FeedbackDeps {
  secrets: SecretBox;
  policy: TargetPolicy;
  /** most webhooks a workspace may have (WEBHOOKS_PER_WORKSPACE) */
  maxPerWorkspace: number;
  /** whether an OAuth app still holds the user's grant (read live, as the worker does) */
  consentHeld?: (grant: OAuthGrant) => Promise<boolean>;
}

export interface WebhookFields {
  url?: string;
  /** the OAuth app's grant when an app sets the URL; null for the maker's own credential */
  grant?: OAuthGrant | null;
  description?: string;
  eventTypes?: WebhookEventType[] | null;
  productKeys?: string[] | null;
}

/**
 * The fields checked, with the URL as it will be called: parsed and written out again, so what
 * list_webhooks and the audit trail show is the receiver messages go to (`HTTPS://A.test/x/../y`
 * is kept as `https://a.test/y`, and a `#fragment`, never sent, is dropped). Spaces, control characters and backslashes (which a URL parser
 * drops or reads as `/`, so the call would go elsewhere than it reads) are refused.
 */
async function checkFields<Fields extends WebhookFields>(
  deps: WebhookDeps,
  workspaceId: string,
  fields: Fields,
): Promise<Fields> {
  let called: string | undefined;
  if (fields.url !== undefined) {
    if (/[\s\p{Cc}\\]/u.test(fields.url)) {
      throw new InvalidArgument('url must not contain spaces, control characters or backslashes');
    }
    try {
      called = (await checkTarget(fields.url, deps.policy)).url.href;
    } catch (error) {
      if (error instanceof RefusedTarget) throw new InvalidArgument(error.message);
      throw error;
    }
  }
  for (const key of fields.productKeys ?? []) {
    if (!(await getProduct(deps.readStore, { workspaceId, key }))) {
      throw new InvalidArgument(`productKeys: the workspace has no product ${key}`);
    }
  }
  return called === undefined ? fields : { ...fields, url: called };
}

/**
 * A retry with the same Idempotency-Key (same caller, same fields) answers the webhook the first
 * attempt created, with the same secret, opened from its sealed record: the first answer may
 * have been lost, and a second webhook would deliver everything twice.
 */
export async function createWebhook(
  deps: WebhookDeps,
  context: CommandContext,
  input: WebhookFields & { workspaceId: string; url: string },
): Promise<{ webhookId: string; secret: string; position: bigint | null }> {
  const { workspaceId } = input;
  const checked = await checkFields(deps, workspaceId, input);
  const webhookId = `wh_${hexIdFor(context, `webhook\0${workspaceId}\0${context.actor}`)}`;
  const fields = {
    url: checked.url,
    description: input.description ?? '',
    eventTypes: input.eventTypes ?? null,
    productKeys: input.productKeys ?? null,
    grant: input.grant ?? null,
  };
  await takePlace(deps, context, workspaceId, webhookId);
  const secret = newSigningSecret();
  const result = await deps.commandHandler.handle(
    webhookStreamId(workspaceId, webhookId),
    webhookDecider,
    {
      type: 'CreateWebhook',
      data: { webhookId, workspaceId, ...fields, secret: deps.secrets.seal(secret, webhookId) },
    },
    keyedBy(context, fields),
  );
  const disabled = await disableIfDisconnected(deps, context, workspaceId, webhookId, fields.grant);
  return {
    webhookId,
    secret: secretOf(deps, webhookId, result) ?? secret,
    position: latest(result.position, disabled),
  };
}

/**
 * A webhook an OAuth app created while the user was disconnecting it: the disconnect lists the
 * webhooks under the grant once its revocation is done, and may not see one written after that
 * listing began — so the creation looks at the grant once its webhook is written, and disables
 * it as the disconnect would have. The position of that write, or null.
 */
async function disableIfDisconnected(
  deps: WebhookDeps,
  context: CommandContext,
  workspaceId: string,
  webhookId: string,
  grant: OAuthGrant | null,
): Promise<bigint | null> {
  if (!grant || !deps.consentHeld || (await deps.consentHeld(grant))) return null;
  const reason = `the OAuth app (client ${grant.clientId}) that set its URL no longer holds the user's consent`;
  const result = await deps.commandHandler.handle(
    webhookStreamId(workspaceId, webhookId),
    webhookDecider,
    { type: 'DisableWebhook', data: { reason } },
    withoutKey(context),
  );
  return result.position;
}

/** The secret a replayed command recorded (an Idempotency-Key retry), opened; else undefined. */
function secretOf(
  deps: WebhookDeps,
  webhookId: string,
  result: { replayed: boolean; events: { data: unknown }[] },
): string | undefined {
  const sealed = result.replayed
    ? (result.events[0]?.data as { secret?: string } | undefined)?.secret
    : undefined;
  return sealed === undefined ? undefined : deps.secrets.open(sealed, webhookId);
}

export async function updateWebhook(
  deps: WebhookDeps,
  context: CommandContext,
  input: WebhookFields & { workspaceId: string; webhookId: string; enabled?: boolean },
): Promise<{ position: bigint | null }> {
  const { workspaceId, webhookId, ...fields } = input;
  const data = await checkFields(deps, workspaceId, fields);
  const result = await deps.commandHandler.handle(
    webhookStreamId(workspaceId, webhookId),
    webhookDecider,
    { type: 'UpdateWebhook', data },
    context,
  );
  return { position: result.position };
}

/** A retry with the same Idempotency-Key answers the secret the first attempt made. */
export async function rotateWebhookSecret(
  deps: WebhookDeps,
  context: CommandContext,
  input: { workspaceId: string; webhookId: string },
): Promise<{ secret: string; position: bigint | null }> {
  const secret = newSigningSecret();
  const result = await deps.commandHandler.handle(
    webhookStreamId(input.workspaceId, input.webhookId),
    webhookDecider,
    {
      type: 'RotateWebhookSecret',
      data: {
        secret: deps.secrets.seal(secret, input.webhookId),
        previousValidUntil: context.now + ROTATION_OVERLAP_MS,
      },
    },
    keyedBy(context, { rotate: input.webhookId }),
  );
  return {
    secret: secretOf(deps, input.webhookId, result) ?? secret,
    position: result.position,
  };
}

export async function deleteWebhook(
  deps: WebhookDeps,
  context: CommandContext,
  input: { workspaceId: string; webhookId: string },
): Promise<{ position: bigint | null }> {
  const result = await deps.commandHandler.handle(
    webhookStreamId(input.workspaceId, input.webhookId),
    webhookDecider,
    { type: 'DeleteWebhook', data: {} },
    context,
  );
  return { position: result.position };
}

/**
 * Disconnecting an OAuth app (revoke_connected_app) switches off every webhook whose URL the app
 * set under the user's grant: the receiver was the app's choice, and the user's consent to it
 * ends with the grant. Disabled rather than deleted, so an admin sees why and may resume it.
 */
export async function disableWebhooksOfGrant(
  deps: Pick<WebhookDeps, 'commandHandler' | 'readStore'>,
  context: CommandContext,
  input: { grant: OAuthGrant; appName: string; clientName?: string },
): Promise<{ disabled: number; position: bigint | null }> {
  const reason = `the OAuth app ${input.appName} that set its URL was disconnected`;
  let position: bigint | null = null;
  const docs = await enabledWebhooksUnderGrant(deps.readStore, input.grant, input.clientName);
  for (const doc of docs) {
    const result = await deps.commandHandler.handle(
      webhookStreamId(doc._ws, doc.id),
      webhookDecider,
      { type: 'DisableWebhook', data: { reason } },
      withoutKey(context),
    );
    position = result.position ?? position;
  }
  return { disabled: docs.length, position };
}
