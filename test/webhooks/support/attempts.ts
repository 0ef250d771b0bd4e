/**
 * One webhook `ws1.wh_1` and its delivery `dlv_1` in a memory read store, and the attempts of
 * attempt.ts over them. The sender is the edge of the outside world: it answers the statuses
 * queued in `answers` (204 when none is left) and records what it was asked to send.
 */
import type { WebhookDoc } from '../../../projections/webhooks/document.js';
import { webhooksOf } from '../../../projections/webhooks/document.js';
import { silentLogger } from '../../../src/platform/logger.js';
import { createMemoryReadStore } from '../../../src/readstore/embedded/memory.js';
import { createAttempts } from '../../../src/webhooks/delivery/attempt.js';
import { type DeliveryDoc, deliveriesOf } from '../../../src/webhooks/delivery/records.js';
import type { AttemptRequest } from '../../../src/webhooks/delivery/sender.js';
import { newSigningSecret } from '../../../src/webhooks/secrets.js';
import { policy, secrets } from './board.js';

export const HOOK = 'ws1.wh_1';
export const DELIVERY = 'dlv_1';

/** webhook `ws1.wh_1` as its projection stores it: enabled, every event, a fresh secret */
export function webhookDoc(hook: Partial<WebhookDoc> = {}): WebhookDoc {
  return {
    _id: HOOK,
    id: 'wh_1',
    url: 'http://127.0.0.1:9/hook',
    description: '',
    eventTypes: null,
    productKeys: null,
    enabled: true,
    disabledReason: null,
    createdAt: 0,
    createdBy: null,
    updatedAt: 0,
    _ws: 'ws1',
    _createdPos: '0',
    _deleted: false,
    _secret: secrets.seal(newSigningSecret(), 'wh_1'),
    _previousSecrets: [],
    ...hook,
  } as WebhookDoc;
}

export async function attemptBench(
  hook: Partial<WebhookDoc> = {},
  queued: Partial<DeliveryDoc> = {},
  now = 1000,
) {
  const store = createMemoryReadStore();
  await webhooksOf(store).insertOne(webhookDoc(hook));
  const delivery = {
    _id: DELIVERY,
    id: DELIVERY,
    webhookId: 'wh_1',
    messageId: 'msg_1',
    // an item's message: a test message is tried once (attempt.ts)
    eventType: 'item.created',
    status: 'pending',
    attemptCount: 0,
    lastAttemptAt: null,
    nextAttemptAt: 0,
    lastResponseStatus: null,
    createdAt: 0,
    _ws: 'ws1',
    _hook: HOOK,
    _order: '0',
    _source: null,
    _payload: '{}',
    _failures: 0,
    _attempts: [],
    ...queued,
  } as unknown as DeliveryDoc;
  await deliveriesOf(store).insertOne(delivery);
  const clock = { at: now, now: () => clock.at };
  const answers: number[] = [];
  const sent: AttemptRequest[] = [];
  const attempts = createAttempts({
    readStore: store,
    clock,
    sender: {
      async send(request) {
        sent.push(request);
        return { status: answers.shift() ?? 204, excerpt: null, error: null, durationMs: 1 };
      },
      close() {},
    },
    policy,
    secrets,
    payloadOf: async () => '{}',
    logger: silentLogger,
  });
  const stored = async () => (await deliveriesOf(store).findOne({ _id: DELIVERY }))!;
  return {
    store,
    clock,
    answers,
    sent,
    /** the copy the dispatcher queued when it was first due */
    queued: delivery,
    stored,
    /** one attempt of `copy` (by default: as the store holds it now) */
    run: async (copy?: DeliveryDoc) => attempts.run(copy ?? (await stored()), () => false),
  };
}
