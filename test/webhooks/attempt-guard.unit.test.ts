/**
 * An attempt re-reads its webhook before sending (attempt.ts: "either may have changed since it
 * was queued"): a delivery queued before its webhook was disabled or deleted is not sent — the
 * read model may say so before the worker has dropped the webhook's queue. README, redeliver: "On
 * a disabled webhook it waits until the webhook is enabled."
 */
import { expect } from 'chai';
import type { WebhookDoc } from '../../projections/webhooks/document.js';
import { type DeliveryDoc, deliveriesOf } from '../../src/webhooks/delivery/records.js';
import { attemptBench } from './support/attempts.js';

async function attemptWith(hook: Partial<WebhookDoc>, queued: Partial<DeliveryDoc> = {}) {
  const bench = await attemptBench(hook, queued);
  const result = await bench.run(bench.queued);
  return { result, sent: bench.sent, after: await bench.stored() };
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

/**
 * attempt.ts re-reads the delivery too: the dispatcher's queue holds the copy a scan read, and by
 * the time it comes up the delivery may be done (an earlier run of the same copy delivered it, a
 * scan raced a direct hand-over) or gone with its webhook. README: "a message counts as delivered
 * only after your 2xx has been recorded" — and once recorded it is not sent again.
 */
describe('When the queued copy of a delivery is stale', () => {
  it('sends nothing for a delivery the store already holds as delivered', async () => {
    const bench = await attemptBench({});
    expect((await bench.run(bench.queued)).kind).to.equal('delivered');
    // the same queued copy, still saying pending, comes up again
    expect(await bench.run(bench.queued)).to.deep.equal({ kind: 'skipped' });
    expect(bench.sent, 'requests sent').to.have.length(1);
    expect(await bench.stored()).to.include({ status: 'succeeded', attemptCount: 1 });
  });

  it('sends nothing for a delivery deleted with its webhook meanwhile', async () => {
    const bench = await attemptBench({});
    await deliveriesOf(bench.store).deleteOne({ _id: bench.queued._id });
    expect(await bench.run(bench.queued)).to.deep.equal({ kind: 'skipped' });
    expect(bench.sent).to.deep.equal([]);
  });
});
