/**
 * What starts afresh when a delivery or its webhook gets a new start. schedule.ts: after the
 * eighth failure a delivery has failed, and "recover_webhook or redeliver_webhook queue it again
 * with a fresh schedule" — its position in the schedule counts the failures since it was queued
 * (records.ts `_failures`), not every attempt in its log. health.ts: "Five days of nothing but
 * failures" disable a webhook, and "A change to the webhook (re-enabling it, a new URL) starts the
 * count afresh".
 */
import { expect } from 'chai';
import { webhooksOf } from '../../projections/webhooks/document.js';
import { requeueDelivery, requeueFailedSince } from '../../src/webhooks/delivery/queries.js';
import { DELIVERY, HOOK, attemptBench } from './support/attempts.js';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const DAY = 24 * H;

describe('When a delivered message that had failed is redelivered and fails again', () => {
  it('waits the first step of the schedule, 5 s, not the step its old failures reached', async () => {
    const bench = await attemptBench();
    bench.answers.push(500, 500, 204);
    await bench.run(); // fails: 5 s
    bench.clock.at += 5 * S;
    await bench.run(); // fails: 5 min
    bench.clock.at += 5 * MIN;
    expect((await bench.run()).kind).to.equal('delivered');
    bench.clock.at += H;
    const now = bench.clock.at;
    await requeueDelivery(bench.store, { hookKey: HOOK, deliveryId: DELIVERY, now });
    bench.answers.push(500);
    const retry = await bench.run();
    expect(retry).to.include({ kind: 'retry', at: now + 5 * S });
    expect(await bench.stored()).to.include({ attemptCount: 4, _failures: 1 });
  });
});

describe('When a failed delivery (eight failures) is recovered and fails again', () => {
  it('is still pending, its next attempt 5 s away: the schedule starts again', async () => {
    const bench = await attemptBench({}, { status: 'failed', attemptCount: 8, _failures: 8 });
    const now = bench.clock.at;
    expect(
      await requeueFailedSince(bench.store, { hookKey: HOOK, since: 0, now, limit: 10 }),
    ).to.equal(1);
    bench.answers.push(500);
    expect(await bench.run()).to.include({ kind: 'retry', at: now + 5 * S });
    expect(await bench.stored()).to.include({ status: 'pending', nextAttemptAt: now + 5 * S });
  });
});

describe('When a webhook that has been failing changes (re-enabled, a new URL)', () => {
  it('counts the five days from the change, not from the first failure before it', async () => {
    const bench = await attemptBench({ updatedAt: 0 }, {}, 1000);
    bench.answers.push(500, 500, 500);
    await bench.run(); // failing since 1000
    // a new URL an hour short of five days later (the worker has forgotten nothing: no re-enable)
    const changedAt = 1000 + 5 * DAY - H;
    await webhooksOf(bench.store).updateOne({ _id: HOOK }, { $set: { updatedAt: changedAt } });
    bench.clock.at = 1000 + 6 * DAY;
    expect(await bench.run()).to.include({ kind: 'retry', disable: null });
    // the new streak began with that failure; five days of it do disable the webhook
    bench.clock.at = 1000 + 11 * DAY;
    const late = await bench.run();
    const since = new Date(1000 + 6 * DAY).toISOString();
    expect(late).to.include({
      disable: `every delivery attempt failed for 5 days (since ${since})`,
    });
  });
});
