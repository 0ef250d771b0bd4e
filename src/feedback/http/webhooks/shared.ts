/** What the webhook operations share: their dependencies and the webhook they address. */
import { NotFound } from '../../../../commands/shared/errors.js';
import type { OAuthGrant } from '../../../../commands/webhook/index.js';
import { findWebhook, type WebhookDoc } from '../../../../projections/webhooks/index.js';
import type { Webhooks } from '../../../webhooks/index.js';
import type { WebhookDeps } from '../../actions/webhooks.js';
import type { Caller, FeedbackHttpDeps } from '../types.js';

export interface WebhookHttpDeps extends FeedbackHttpDeps {
  webhooks: Webhooks;
}

export const TAGS = ['Webhooks'];
export const DECLARED = [400, 401, 403, 404] as const;
export const ADMIN = { workspace: true, admin: true } as const;

export function actionDeps(deps: WebhookHttpDeps): WebhookDeps {
  return {
    commandHandler: deps.commandHandler,
    readStore: deps.readStore,
    secrets: deps.webhooks.secrets,
    policy: deps.webhooks.policy,
    maxPerWorkspace: deps.config.WEBHOOKS_PER_WORKSPACE,
    ...(deps.webhooks.consentHeld ? { consentHeld: deps.webhooks.consentHeld } : {}),
  };
}

export async function webhookOf(
  deps: WebhookHttpDeps,
  workspaceId: string,
  webhookId: string,
): Promise<WebhookDoc> {
  const doc = await findWebhook(deps.readStore, { workspaceId, webhookId });
  if (!doc) throw new NotFound('webhook not found');
  return doc;
}

/** The grant a webhook URL set by this caller lives under: an OAuth app's, or null (the maker's). */
export function grantOf(caller: Caller): OAuthGrant | null {
  return caller.credential === 'oauth' && caller.clientId
    ? { userId: caller.userId, clientId: caller.clientId }
    : null;
}
