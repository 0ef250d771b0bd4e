/**
 * Webhook configuration: create (the signing secret is in that answer only), list, get, update
 * (`enabled: true` resumes a disabled webhook from where it stopped), delete, rotate the secret
 * (the old one keeps signing beside the new one for 24 hours). Admins only.
 */
import { z } from 'zod';
import { toWebhook } from '../../../../projections/webhooks/index.js';
import { webhooksOfWorkspace } from '../../../../projections/webhooks/queries.js';
import {
  createWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  updateWebhook,
} from '../../actions/webhooks.js';
import { WorkspaceParams } from '../schemas.js';
import { contextOf, workspaceOf } from '../triage/shared.js';
import { defineFeedbackOp, type FeedbackOperation } from '../types.js';
import {
  Description,
  EventTypes,
  ProductKeys,
  SigningSecret,
  Webhook,
  WebhookParams,
  WebhookUrl,
} from './schemas.js';
import {
  ADMIN,
  actionDeps,
  DECLARED,
  grantOf,
  TAGS,
  type WebhookHttpDeps,
  webhookOf,
} from './shared.js';

const NO_STORE = { 'Cache-Control': 'no-store' };

export function manageOperations(deps: WebhookHttpDeps): FeedbackOperation[] {
  const readBack = (workspaceId: string, webhookId: string) => async () => ({
    body: { webhook: toWebhook(await webhookOf(deps, workspaceId, webhookId)) },
  });

  const create = defineFeedbackOp({
    id: 'create_webhook',
    honoursIfMatch: 'commands',
    method: 'post',
    // its URL is resolved, then sent the workspace's messages
    openWorld: true,
    path: '/v1/workspaces/{slug}/webhooks',
    summary: 'Create a webhook',
    description:
      'Subscribes a receiver to the workspace’s messages. The answer carries the signing secret (`whsec_…`), shown only here; every delivery is signed with it as Standard Webhooks describes.',
    tags: TAGS,
    params: WorkspaceParams,
    body: z
      .object({
        url: WebhookUrl,
        description: Description.optional(),
        eventTypes: EventTypes.optional(),
        productKeys: ProductKeys.optional(),
      })
      .strict(),
    response: z.object({ webhook: Webhook, secret: SigningSecret }),
    errors: DECLARED,
    auth: 'bearer',
    meta: ADMIN,
    extraDescription:
      'A URL that is not https, carries credentials, does not resolve, or resolves to a loopback, private, link-local, CGNAT, multicast or cloud metadata address answers 400; so does an unknown product key.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { webhookId, secret, position } = await createWebhook(
        actionDeps(deps),
        contextOf(deps, ctx),
        { workspaceId, ...ctx.body, grant: grantOf(ctx.principal) },
      );
      return {
        position,
        async readBack() {
          const { body } = await readBack(workspaceId, webhookId)();
          return { headers: NO_STORE, body: { webhook: body.webhook, secret } };
        },
      };
    },
  });

  const list = defineFeedbackOp({
    id: 'list_webhooks',
    method: 'get',
    path: '/v1/workspaces/{slug}/webhooks',
    summary: 'List the workspace’s webhooks',
    tags: TAGS,
    params: WorkspaceParams,
    response: z.object({
      items: z.array(Webhook),
      nextCursor: z.null().meta({ description: 'always null: every webhook is in one answer' }),
    }),
    errors: DECLARED,
    auth: 'bearer',
    meta: ADMIN,
    extraDescription: 'Oldest first. Never the signing secrets.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const docs = await webhooksOfWorkspace(deps.readStore, workspaceId);
      return { body: { items: docs.map(toWebhook), nextCursor: null } };
    },
  });

  const get = defineFeedbackOp({
    id: 'get_webhook',
    method: 'get',
    path: '/v1/workspaces/{slug}/webhooks/{webhookId}',
    summary: 'Get a webhook',
    tags: TAGS,
    params: WebhookParams,
    response: z.object({ webhook: Webhook }),
    errors: DECLARED,
    auth: 'bearer',
    meta: ADMIN,
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      return readBack(workspaceId, ctx.params.webhookId)();
    },
  });

  const update = defineFeedbackOp({
    id: 'update_webhook',
    honoursIfMatch: 'commands',
    method: 'patch',
    // a new URL is resolved and sent the messages; enabling resumes delivery
    openWorld: true,
    path: '/v1/workspaces/{slug}/webhooks/{webhookId}',
    summary: 'Change a webhook, or disable / enable it',
    tags: TAGS,
    params: WebhookParams,
    body: z
      .object({
        url: WebhookUrl.optional(),
        description: Description.optional(),
        eventTypes: EventTypes.optional(),
        productKeys: ProductKeys.optional(),
        enabled: z.boolean().optional(),
      })
      .strict(),
    response: z.object({ webhook: Webhook }),
    errors: DECLARED,
    auth: 'bearer',
    meta: ADMIN,
    extraDescription:
      'Partial: only the fields sent change. `enabled: true` on a disabled webhook clears `disabledReason` and resumes delivery from where it stopped: every message since then is sent, nothing is lost. The URL is checked as on creation.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { webhookId } = ctx.params;
      const { position } = await updateWebhook(actionDeps(deps), contextOf(deps, ctx), {
        workspaceId,
        webhookId,
        ...ctx.body,
        grant: grantOf(ctx.principal),
      });
      return { position, readBack: readBack(workspaceId, webhookId) };
    },
  });

  const remove = defineFeedbackOp({
    id: 'delete_webhook',
    honoursIfMatch: 'commands',
    method: 'delete',
    path: '/v1/workspaces/{slug}/webhooks/{webhookId}',
    summary: 'Delete a webhook',
    tags: TAGS,
    params: WebhookParams,
    successStatus: 204,
    errors: DECLARED,
    auth: 'bearer',
    meta: ADMIN,
    extraDescription: 'Nothing more is sent to it; its delivery log goes with it.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { position } = await deleteWebhook(actionDeps(deps), contextOf(deps, ctx), {
        workspaceId,
        webhookId: ctx.params.webhookId,
      });
      return { position };
    },
  });

  const rotate = defineFeedbackOp({
    id: 'rotate_webhook_secret',
    honoursIfMatch: 'commands',
    method: 'post',
    destructive: true,
    path: '/v1/workspaces/{slug}/webhooks/{webhookId}/rotate-secret',
    summary: 'Replace a webhook’s signing secret',
    tags: TAGS,
    params: WebhookParams,
    response: z.object({ secret: SigningSecret }),
    errors: DECLARED,
    auth: 'bearer',
    meta: ADMIN,
    extraDescription:
      'For 24 hours every delivery carries two signatures, one with the old secret and one with the new (space-separated in `webhook-signature`), so receivers can switch without losing a message; after that only the new secret signs.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { secret, position } = await rotateWebhookSecret(
        actionDeps(deps),
        contextOf(deps, ctx),
        { workspaceId, webhookId: ctx.params.webhookId },
      );
      return { position, headers: NO_STORE, body: { secret } };
    },
  });

  return [create, list, get, update, remove, rotate];
}
