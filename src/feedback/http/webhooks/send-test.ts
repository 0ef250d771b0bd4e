/**
 * send_test_webhook: a `webhook.test` message to one webhook, whatever its filters. Test sends
 * are throttled with redeliveries (throttle.ts): the delivery log shows the first KB of whatever
 * the target answered. A retry with the same Idempotency-Key answers the first delivery and
 * spends nothing.
 */
import { z } from 'zod';
import { FailedPrecondition } from '../../../../commands/shared/errors.js';
import { describeActor } from '../../../../projections/people/actor.js';
import { isDuplicateKey } from '../../../readstore/types.js';
import { type DeliveryDoc, deliveriesOf, newDelivery } from '../../../webhooks/delivery/records.js';
import { type Message, messageIdOf } from '../../../webhooks/messages/message.js';
import { hexIdFor } from '../../actions/deps.js';
import { workspaceOf } from '../triage/shared.js';
import { defineFeedbackOp, type FeedbackOperation } from '../types.js';
import { DeliveryId, WebhookParams } from './schemas.js';
import { ADMIN, DECLARED, TAGS, type WebhookHttpDeps, webhookOf } from './shared.js';
import type { SendThrottle } from './throttle.js';

export function sendTestOperation(
  deps: WebhookHttpDeps,
  throttle: SendThrottle,
): FeedbackOperation {
  const now = () => deps.webhooks.clock.now();

  return defineFeedbackOp({
    id: 'send_test_webhook',
    honoursIfMatch: 'handler',
    method: 'post',
    openWorld: true,
    path: '/v1/workspaces/{slug}/webhooks/{webhookId}/test',
    summary: 'Send a webhook.test message',
    tags: TAGS,
    params: WebhookParams,
    response: z.object({ deliveryId: DeliveryId }),
    errors: [...DECLARED, 409, 429],
    auth: 'bearer',
    meta: ADMIN,
    extraDescription:
      'Delivers a `webhook.test` message to this webhook whatever its filters, signed like any other but tried once: a failed attempt is not retried (the delivery is `failed`); follow it with get_webhook_delivery. A disabled webhook answers 409: enable it first. ' +
      `At most ${deps.config.WEBHOOK_TESTS_PER_WEBHOOK_PER_MINUTE} test messages and redeliveries per webhook and ${deps.config.WEBHOOK_TESTS_PER_WORKSPACE_PER_MINUTE} per workspace (and per account) in any minute; past that 429 \`resource-exhausted\` with \`Retry-After\`.`,
    async handler(ctx) {
      const { workspaceId, slug } = workspaceOf(ctx.access);
      const hook = await webhookOf(deps, workspaceId, ctx.params.webhookId);
      if (!hook.enabled) throw new FailedPrecondition('the webhook is disabled; enable it first');
      const at = now();
      // with an Idempotency-Key, a retry names the same message, hence the same delivery
      const messageId = messageIdOf(
        hexIdFor(ctx, `webhook.test\0${hook._id}\0${ctx.principal.userId}`),
      );
      const actor = await describeActor(deps.readStore, workspaceId, {
        actor: ctx.principal.userId,
        ...(ctx.principal.via ? { via: ctx.principal.via } : {}),
        occurredAt: at,
        correlationId: ctx.correlationId,
        causationId: null,
      });
      const message: Message = {
        type: 'webhook.test',
        timestamp: new Date(at).toISOString(),
        data: {
          messageId,
          workspace: slug,
          webhookId: hook.id,
          actor,
          ...(ctx.principal.via ? { via: ctx.principal.via } : {}),
          note: 'A test message sent with send_test_webhook.',
        },
      };
      const doc = newDelivery({
        hookKey: hook._id,
        webhookId: hook.id,
        workspaceId,
        messageId,
        eventType: 'webhook.test',
        now: at,
        position: null,
        source: null,
        payload: JSON.stringify(message),
        correlationId: ctx.correlationId,
      });
      // written outside the event log: a failed precondition is answered before (lifecycle.ts)
      if (ctx.unmetPrecondition) throw ctx.unmetPrecondition;
      if (await isSent(deps, doc)) return { body: { deliveryId: doc.id } }; // a keyed retry
      const settle = await throttle.single('test', {
        workspaceId,
        hookKey: hook._id,
        userId: ctx.principal.userId,
      });
      try {
        await deliveriesOf(deps.readStore).insertOne(doc);
      } catch (error) {
        // nothing sent: a keyed retry's twin made the first attempt's delivery, or the store failed
        await settle(false);
        if (!isDuplicateKey(error)) throw error;
        return { body: { deliveryId: doc.id } }; // the first attempt's delivery
      }
      await settle(true);
      deps.webhooks.wake();
      return { body: { deliveryId: doc.id } };
    },
  });
}

async function isSent(deps: WebhookHttpDeps, doc: DeliveryDoc): Promise<boolean> {
  return (await deliveriesOf(deps.readStore).findOne({ _id: doc._id })) !== null;
}
