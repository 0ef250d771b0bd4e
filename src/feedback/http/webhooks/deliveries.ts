/**
 * The delivery log and what an admin can do with it: send a test message (send-test.ts), page
 * through the deliveries (newest first), read one with its attempts, send one again (same
 * message, same `webhook-id`), and queue again every failed one since a time. What sends now is
 * throttled (throttle.ts).
 */
import { z } from 'zod';
import { NotFound } from '../../../../commands/shared/errors.js';
import { hexIdFor } from '../../actions/deps.js';
import { cursorParam, howToPage, nextCursorOf, pageSizeParam } from '../../../http/registry.js';
import {
  countFailedSince,
  findDelivery,
  listDeliveries,
  requeueDelivery,
  requeueFailedSince,
} from '../../../webhooks/delivery/queries.js';
import { toDelivery } from '../../../webhooks/delivery/records.js';
import { Timestamp } from '../schemas.js';
import { workspaceOf } from '../triage/shared.js';
import { defineFeedbackOp, type FeedbackOperation } from '../types.js';
import {
  Delivery,
  DeliveryAttempt,
  DeliveryId,
  DeliveryParams,
  DeliveryStatus,
  WebhookParams,
} from './schemas.js';
import { sendTestOperation } from './send-test.js';
import { ADMIN, DECLARED, TAGS, type WebhookHttpDeps, webhookOf } from './shared.js';
import { createSendThrottle } from './throttle.js';
import { settling } from '../../../limits/index.js';

export function deliveryOperations(deps: WebhookHttpDeps): FeedbackOperation[] {
  const now = () => deps.webhooks.clock.now();
  const throttle = createSendThrottle({ readStore: deps.readStore, now, config: deps.config });
  const { config } = deps;
  const scope = (hookKey: string) => ({ scope: `deliveries:${hookKey}` });

  const list = defineFeedbackOp({
    id: 'list_webhook_deliveries',
    method: 'get',
    path: '/v1/workspaces/{slug}/webhooks/{webhookId}/deliveries',
    summary: 'List a webhook’s deliveries, newest first',
    tags: TAGS,
    params: WebhookParams,
    query: z.object({
      status: DeliveryStatus.optional(),
      cursor: cursorParam(),
      pageSize: pageSizeParam({ max: 200, default: 50 }),
    }),
    response: z.object({
      items: z.array(Delivery),
      nextCursor: nextCursorOf(),
    }),
    errors: DECLARED,
    auth: 'bearer',
    meta: ADMIN,
    extraDescription: `${howToPage()} Finished deliveries are kept for 30 days after their last attempt. An edited cursor answers 400.`,
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const hook = await webhookOf(deps, workspaceId, ctx.params.webhookId);
      const { status, cursor, pageSize } = ctx.query;
      const before = cursor
        ? deps.cursors.decodeAs(cursor, z.object({ b: z.string() }), scope(hook._id)).b
        : null;
      const page = await listDeliveries(deps.readStore, {
        hookKey: hook._id,
        ...(status ? { status } : {}),
        before,
        limit: pageSize,
      });
      const nextCursor = page.nextBefore
        ? deps.cursors.encode({ b: page.nextBefore }, scope(hook._id))
        : null;
      return { body: { items: page.docs.map(toDelivery), nextCursor } };
    },
  });

  const get = defineFeedbackOp({
    id: 'get_webhook_delivery',
    method: 'get',
    path: '/v1/workspaces/{slug}/webhooks/{webhookId}/deliveries/{deliveryId}',
    summary: 'Get a delivery with every attempt',
    tags: TAGS,
    params: DeliveryParams,
    response: z.object({ delivery: Delivery, attempts: z.array(DeliveryAttempt) }),
    errors: DECLARED,
    auth: 'bearer',
    meta: ADMIN,
    extraDescription: 'Attempts oldest first (the last 50 are kept).',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const hook = await webhookOf(deps, workspaceId, ctx.params.webhookId);
      const doc = await findDelivery(deps.readStore, {
        hookKey: hook._id,
        deliveryId: ctx.params.deliveryId,
      });
      if (!doc) throw new NotFound('delivery not found');
      return { body: { delivery: toDelivery(doc), attempts: doc._attempts } };
    },
  });

  const redeliver = defineFeedbackOp({
    id: 'redeliver_webhook',
    honoursIfMatch: 'handler',
    method: 'post',
    openWorld: true,
    path: '/v1/workspaces/{slug}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
    summary: 'Send a delivery’s message again',
    tags: TAGS,
    params: DeliveryParams,
    response: z.object({ deliveryId: DeliveryId }),
    errors: [...DECLARED, 429],
    auth: 'bearer',
    meta: ADMIN,
    extraDescription:
      'A new attempt of the same message, with the same `webhook-id`, now and with a fresh retry schedule; the delivery keeps its log. Two calls without an `Idempotency-Key` send it twice, one after the other, however close together they came. On a disabled webhook it waits until the webhook is enabled. ' +
      `Counted with send_test_webhook: at most ${config.WEBHOOK_TESTS_PER_WEBHOOK_PER_MINUTE} per webhook and ${config.WEBHOOK_TESTS_PER_WORKSPACE_PER_MINUTE} per workspace (and per account) in any minute; past that 429 \`resource-exhausted\` with \`Retry-After\`.`,
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const hook = await webhookOf(deps, workspaceId, ctx.params.webhookId);
      const { deliveryId } = ctx.params;
      // written outside the event log: a failed precondition is answered before, once the delivery
      // is found (steps/preconditions.ts checkPreconditions); a delivery not found spends nothing
      const found = await findDelivery(deps.readStore, { hookKey: hook._id, deliveryId });
      if (!found) throw new NotFound('delivery not found');
      if (ctx.unmetPrecondition) throw ctx.unmetPrecondition;
      // a retry with the same Idempotency-Key is answered as the first: nothing sent or counted
      const keyedFor = ctx.idempotencyKey
        ? hexIdFor(ctx, `redeliver\0${ctx.principal.userId}`)
        : undefined;
      if (keyedFor && found._redeliveredFor === keyedFor) return { body: { deliveryId } };
      // a redelivery after update_webhook changed the URL probes the new host like a test
      const settle = await throttle.single('redelivery', {
        workspaceId,
        hookKey: hook._id,
        userId: ctx.principal.userId,
      });
      const requeue = {
        hookKey: hook._id,
        deliveryId,
        now: now(),
        ...(keyedFor ? { keyedFor } : {}),
      };
      // a delivery gone meanwhile is sent nothing, nor is a keyed twin's: neither counts
      const requeueing = requeueDelivery(deps.readStore, requeue);
      const requeued = await settling(settle, requeueing, (r) => r === 'requeued');
      if (requeued === 'missing') throw new NotFound('delivery not found');
      deps.webhooks.wake();
      return { body: { deliveryId } };
    },
  });

  const recover = defineFeedbackOp({
    id: 'recover_webhook',
    honoursIfMatch: 'handler',
    method: 'post',
    openWorld: true,
    path: '/v1/workspaces/{slug}/webhooks/{webhookId}/recover',
    summary: 'Send again every failed message since a time',
    tags: TAGS,
    params: WebhookParams,
    body: z
      .object({ since: Timestamp.describe('milliseconds since the epoch; failed since then') })
      .strict(),
    response: z.object({
      queued: z.number().int().min(0),
      left: z
        .number()
        .int()
        .min(0)
        .meta({ description: 'failed deliveries since `since` not queued this time: call again' }),
    }),
    errors: [...DECLARED, 429],
    auth: 'bearer',
    meta: ADMIN,
    extraDescription:
      'Every delivery of this webhook created at or after `since` whose retries ran out is queued again (same `webhook-id`, fresh retry schedule), oldest first; not a failed `webhook.test` message, a probe sent once on request (redeliver_webhook sends one again by its id). ' +
      `Each counts: at most ${config.WEBHOOK_RECOVERED_PER_WEBHOOK_PER_MINUTE} per webhook and ${config.WEBHOOK_RECOVERED_PER_WORKSPACE_PER_MINUTE} per workspace (and per account) in any minute. Past that the rest stay failed (\`left\`; call again a minute later), and with room for none it answers 429 \`resource-exhausted\` with \`Retry-After\`.`,
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const hook = await webhookOf(deps, workspaceId, ctx.params.webhookId);
      // written outside the event log: a failed precondition is answered before (lifecycle.ts)
      if (ctx.unmetPrecondition) throw ctx.unmetPrecondition;
      const failed = { hookKey: hook._id, since: ctx.body.since };
      const wanted = await countFailedSince(deps.readStore, failed);
      // each delivery queued is a request to the webhook's URL now: counted one by one
      const { room, settle } = await throttle.recovered(
        { workspaceId, hookKey: hook._id, userId: ctx.principal.userId },
        wanted,
      );
      // recovers sent together count the same failures: only those each queued are counted
      const requeueing = requeueFailedSince(deps.readStore, { ...failed, now: now(), limit: room });
      const queued = await settling(settle, requeueing, (n) => n);
      if (queued > 0) deps.webhooks.wake();
      // `left` is what a later call would find failed: those another recover queued meanwhile
      // are not (counted from `wanted`, the second of two calls sent together told the admin to
      // call again for failures already on their way)
      const left = queued < wanted ? await countFailedSince(deps.readStore, failed) : 0;
      return { body: { queued, left } };
    },
  });

  return [sendTestOperation(deps, throttle), list, get, redeliver, recover];
}
