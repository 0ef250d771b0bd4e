/**
 * An attempt re-reads its webhook before sending (attempt.ts: "either may have changed since it
 * was queued"): a delivery queued before its webhook was disabled or deleted is not sent — the
 * read model may say so before the worker has dropped the webhook's queue. README, redeliver: "On
 * a disabled webhook it waits until the webhook is enabled."
 */
import { expect } from 'chai';
import type { WebhookDoc } from '../../projections/webhooks/document.js';
import { webhooksOf } from '../../projections/webhooks/document.js';
import { silentLogger } from '../../src/platform/logger.js';
import { createMemoryReadStore } from '../../src/readstore/embedded/memory.js';
import { createAttempts } from '../../src/webhooks/delivery/attempt.js';
import { type DeliveryDoc, deliveriesOf } from '../../src/webhooks/delivery/records.js';
import type { AttemptRequest } from '../../src/webhooks/delivery/sender.js';
import { newSigningSecret } from '../../src/webhooks/secrets.js';
import { policy, secrets } from './support/board.js';

const HOOK = 'ws1.wh_1';

async function attemptWith(hook: Partial<WebhookDoc>, queued: Partial<DeliveryDoc> = {}) {
  const store = createMemoryReadStore();
  await webhooksOf(store).insertOne({
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
  } as WebhookDoc);
  const delivery = {
    _id: 'dlv_1',
    id: 'dlv_1',
    webhookId: 'wh_1',
    messageId: 'msg_1',
    eventType: 'webhook.test',
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
  const sent: AttemptRequest[] = [];
  const attempts = createAttempts({
    readStore: store,
    clock: { now: () => 1000 },
    sender: {
      async send(request) {
        sent.push(request);
        return { status: 204, excerpt: null, error: null, stopped: false } as never;
      },
      close() {},
    },
    policy,
    secrets,
    payloadOf: async () => '{}',
    logger: silentLogger,
  });
  const result = await attempts.run(delivery, () => false);
  const after = await deliveriesOf(store).findOne({ _id: 'dlv_1' });
  return { result, sent, after };
}

describe('When a queued delivery comes up after its webhook changed', () => {
  it('sends it while the webhook is enabled', async () => {
    const { result, sent } = await attemptWith({});
    expect(result.kind).to.equal('delivered');
    expect(sent).to.have.length(1);
    // README: a failure is also "no answer within 15 seconds"
    expect(sent[0]!.timeoutMs).to.equal(15_000);
  });

  it('sends nothing once the webhook is disabled', async () => {
    const { result, sent } = await attemptWith({ enabled: false, disabledReason: 'by an admin' });
    expect(result).to.deep.equal({ kind: 'skipped' });
    expect(sent).to.deep.equal([]);
  });

  it('sends nothing once the webhook is deleted', async () => {
    const { result, sent } = await attemptWith({ enabled: false, _deleted: true });
    expect(result).to.deep.equal({ kind: 'skipped' });
    expect(sent).to.deep.equal([]);
  });
});

describe('When a delivery that has been attempted many times is attempted again', () => {
  it('keeps its last 50 attempts, the oldest going first (records.ts: KEPT_ATTEMPTS)', async () => {
    const old = Array.from({ length: 50 }, (_, i) => ({
      at: i,
      status: 'failed',
      durationMs: 1,
      responseStatus: 500,
      responseBodyExcerpt: null,
      error: null,
    }));
    const { after } = await attemptWith({}, { _attempts: old, attemptCount: 50 } as never);
    expect(after!._attempts).to.have.length(50);
    expect(after!._attempts[0]!.at).to.equal(1);
    expect(after!._attempts.at(-1)).to.include({ at: 1000, status: 'succeeded' });
  });
});
