/**
 * places.ts: all lanes of one worker together have at most WEBHOOK_MAX_IN_FLIGHT attempts in
 * flight. WEBHOOK_CONCURRENCY bounds each webhook and a workspace has at most 20, but workspaces
 * are unbounded: many tenants' receivers that hold every request open held as many sockets in
 * one worker. Past the bound further attempts wait — neither sent nor recorded as their
 * receivers' failures — and once the receivers answer, every message arrives, each item's in
 * its order.
 */
import { expect } from 'chai';
import { deliveriesOf } from '../../src/webhooks/delivery/records.js';
import { holdingReceivers, inOrder, numberOf } from './support/holding-receivers.js';

/** four webhooks (four tenants) of concurrency 2 each: 8 attempts at once without the bound */
const HOOKS = 4;
const CONCURRENCY = 2;
const MAX_IN_FLIGHT = 3;
/** per webhook: three items, each with its messages in order */
const MESSAGES = 12;
const itemOf = (n: number) => n % 3;

describe('When many tenants’ receivers hold every request open', () => {
  it('keeps at most WEBHOOK_MAX_IN_FLIGHT attempts in flight, fails none, and later delivers every message in its item’s order', async () => {
    const bench = await holdingReceivers({
      hooks: HOOKS,
      concurrency: CONCURRENCY,
      maxInFlight: MAX_IN_FLIGHT,
    });
    try {
      for (let n = 0; n < MESSAGES; n++) {
        for (let h = 0; h < HOOKS; h++) await bench.message(h, n, itemOf(n));
      }
      await bench.until(() => bench.holding.length === MAX_IN_FLIGHT);
      await new Promise((r) => setTimeout(r, 100)); // room for a fourth, were it let through
      expect(bench.holding, 'requests held open').to.have.length(MAX_IN_FLIGHT);
      expect(bench.peak(), 'attempts in flight at once').to.equal(MAX_IN_FLIGHT);
      // those that wait are not failed meanwhile: every delivery is pending, none has an attempt
      const waiting = await deliveriesOf(bench.store).find({ status: 'pending', attemptCount: 0 });
      expect(waiting, 'deliveries pending, no attempt recorded').to.have.length(HOOKS * MESSAGES);

      bench.answerAll();
      const total = () => [...bench.sent.values()].reduce((sum, ids) => sum + ids.length, 0);
      await bench.until(() => total() === HOOKS * MESSAGES);
      expect(bench.peak(), 'attempts in flight at once').to.equal(MAX_IN_FLIGHT);
      for (const [hookId, ids] of bench.sent) {
        expect(new Set(ids).size, `messages to ${hookId}`).to.equal(MESSAGES);
        for (let item = 0; item < 3; item++) {
          const ofItem = ids.filter((id) => itemOf(numberOf(id)) === item);
          expect(ofItem, `${hookId}, item ${item}`).to.deep.equal(inOrder(ofItem));
        }
      }
      await bench.until(() => bench.holding.length === 0);
      const done = await deliveriesOf(bench.store).find({});
      expect(
        done.map((d) => `${d.status} after ${d.attemptCount}`),
        'every delivery sent once, none failed',
      ).to.deep.equal(done.map(() => 'succeeded after 1'));
    } finally {
      bench.answerAll();
      await bench.dispatcher.stop();
    }
  });
});
