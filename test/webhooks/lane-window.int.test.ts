/**
 * dispatcher.ts: "Each webhook has its own lane with at most `concurrency` attempts in flight".
 * The attack: a receiver that holds every request for its 15 s drains about one message every
 * two seconds (default WEBHOOK_CONCURRENCY 8), while its workspace makes many. The fresh
 * deliveries the worker hands over must not pile up in memory: a lane holds a window of them
 * (twice its concurrency) and the rest wait in the store — and none is lost, and one item's
 * messages still go in their order, once the receiver answers again.
 */
import { expect } from 'chai';
import { DELIVERIES } from '../../src/webhooks/delivery/records.js';
import { heldReadsIn } from '../support/held-reads.js';
import { holdingReceivers, inOrder, numberOf } from './support/holding-receivers.js';

const CONCURRENCY = 2;
const MESSAGES = 200;
/** four items, each with its messages in order */
const itemOf = (n: number) => n % 4;

/** one webhook's lane; `holdScan` holds the dispatcher's next read of what is due */
async function lane(concurrency: number) {
  const rig = await holdingReceivers({ hooks: 1, concurrency });
  const held = heldReadsIn(rig.store, [DELIVERIES]);
  return {
    ...rig,
    /** the messages the receiver was sent, in the order they arrived */
    sent: rig.sent.get('wh_1')!,
    /** holds the dispatcher's next read of what is due (a scan caught mid-read) */
    holdScan: (answered: boolean) => held.hold(DELIVERIES, 1, { method: 'find', answered }),
    message: (n: number, item: number) => rig.message(0, n, item),
  };
}

describe('When a receiver holds every request while its workspace makes many messages', () => {
  it('keeps at most twice WEBHOOK_CONCURRENCY deliveries in memory, and later sends every one in order', async () => {
    const bench = await lane(CONCURRENCY);
    try {
      for (let n = 0; n < MESSAGES; n++) await bench.message(n, itemOf(n));
      expect(bench.dispatcher.queued(), 'deliveries held in memory').to.be.at.most(2 * CONCURRENCY);
      bench.answerAll();
      await bench.until(() => bench.sent.length === MESSAGES);
      expect(new Set(bench.sent).size, 'messages sent').to.equal(MESSAGES);
      for (let item = 0; item < 4; item++) {
        const ofItem = bench.sent.filter((id) => itemOf(numberOf(id)) === item);
        expect(ofItem, `the messages of item ${item}`).to.deep.equal(inOrder(ofItem));
      }
    } finally {
      bench.answerAll();
      await bench.dispatcher.stop();
    }
  });

  it('sends a message handed over once the lane has room after those that waited in the store', async () => {
    const bench = await lane(1);
    try {
      // one item: one in flight, two held in memory, seven in the store
      for (let n = 0; n < 10; n++) await bench.message(n, 1);
      await bench.until(() => bench.holding.length === 1);
      bench.holding.shift()!(); // the receiver answers the first: the lane has room again
      await bench.until(() => bench.holding.length === 1);
      await bench.message(10, 1);
      bench.answerAll();
      await bench.until(() => bench.sent.length === 11);
      expect(bench.sent).to.deep.equal(inOrder(bench.sent)).and.to.have.length(11);
    } finally {
      bench.answerAll();
      await bench.dispatcher.stop();
    }
  });

  // answered: the scan read the store before the message was in it (only its answer is late)
  for (const answered of [false, true]) {
    it(`sends a message handed over while a scan reads the store after those that waited there${answered ? ' (read before it was stored)' : ''}`, async () => {
      const bench = await lane(1);
      try {
        // one item: one in flight, two held in memory, one in the store (less than a window, so
        // the scan that reads it finds nothing more)
        for (let n = 0; n < 4; n++) await bench.message(n, 1);
        await bench.until(() => bench.holding.length === 1);
        bench.holding.shift()!(); // msg 0 answered: msg 1 goes, msg 2 waits in memory
        await bench.until(() => bench.holding.length === 1);
        bench.holding.shift()!(); // msg 1 answered: msg 2 goes, the lane's memory is empty
        await bench.until(() => bench.holding.length === 1);
        // msg 2 answered: the lane is empty, so it asks the store for msg 3 (held)
        const scanHeld = bench.holdScan(answered);
        bench.holding.shift()!();
        const [release] = await scanHeld;
        await bench.message(4, 1);
        bench.answerAll();
        release!();
        await bench.until(() => bench.sent.length === 5);
        expect(bench.sent).to.deep.equal(inOrder(bench.sent)).and.to.have.length(5);
      } finally {
        bench.answerAll();
        await bench.dispatcher.stop();
      }
    });
  }
});
