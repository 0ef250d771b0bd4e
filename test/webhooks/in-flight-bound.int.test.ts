/**
 * places.ts: all lanes of one worker together have at most WEBHOOK_MAX_IN_FLIGHT attempts in
 * flight. WEBHOOK_CONCURRENCY bounds each webhook and a workspace has at most 20, but workspaces
 * are unbounded: many tenants' receivers that hold every request open held as many sockets in
 * one worker. Past the bound further attempts wait — neither sent nor recorded as their
 * receivers' failures — and once the receivers answer, every message arrives, each item's in
 * its order.
 */
import { expect } from 'chai';
import { webhooksOf } from '../../projections/webhooks/document.js';
import { silentLogger } from '../../src/platform/logger.js';
import { createMemoryReadStore } from '../../src/readstore/embedded/memory.js';
import { createDispatcher } from '../../src/webhooks/delivery/dispatcher.js';
import { deliveriesOf, newDelivery } from '../../src/webhooks/delivery/records.js';
import type { AttemptRequest, AttemptResponse } from '../../src/webhooks/delivery/sender.js';
import { newSigningSecret } from '../../src/webhooks/secrets.js';
import { webhookDoc } from './support/attempts.js';
import { policy, secrets } from './support/board.js';

/** four webhooks (four tenants) of concurrency 2 each: 8 attempts at once without the bound */
const HOOKS = ['wh_1', 'wh_2', 'wh_3', 'wh_4'];
const CONCURRENCY = 2;
const MAX_IN_FLIGHT = 3;
/** per webhook: three items, each with its messages in order */
const MESSAGES = 12;
const itemOf = (n: number) => n % 3;

async function worker() {
  const store = createMemoryReadStore();
  for (const [i, id] of HOOKS.entries()) {
    const ws = `ws${i + 1}`;
    await webhooksOf(store).insertOne(
      webhookDoc({
        _id: `${ws}.${id}`,
        id,
        _ws: ws,
        _secret: secrets.seal(newSigningSecret(), id),
      }),
    );
  }
  /** the webhook-ids the receivers answered, per webhook, in the order they were sent */
  const sent = new Map<string, string[]>(HOOKS.map((id) => [id, []]));
  const holding: (() => void)[] = [];
  let holds = true;
  let inFlight = 0;
  let peak = 0;
  const dispatcher = createDispatcher({
    readStore: store,
    clock: { now: () => 1000 },
    sender: {
      async send(request: AttemptRequest): Promise<AttemptResponse> {
        inFlight++;
        peak = Math.max(peak, inFlight);
        const [hookId] = request.headers['webhook-id']!.split(':');
        sent.get(hookId!.slice(4))!.push(request.headers['webhook-id']!);
        if (holds) await new Promise<void>((resolve) => holding.push(resolve));
        inFlight--;
        return { status: 204, excerpt: null, error: null, durationMs: 1 };
      },
      close() {},
    },
    policy,
    secrets,
    payloadOf: async () => '{}',
    concurrency: CONCURRENCY,
    maxInFlight: MAX_IN_FLIGHT,
    pollMs: 60_000,
    disable: async () => {},
    persist: () => {},
    logger: silentLogger,
  });
  await dispatcher.start();
  return {
    store,
    dispatcher,
    sent,
    holding,
    peak: () => peak,
    /** a fresh delivery stored and handed over, as the worker does */
    async message(hookIndex: number, n: number) {
      const id = HOOKS[hookIndex]!;
      const ws = `ws${hookIndex + 1}`;
      const doc = newDelivery({
        hookKey: `${ws}.${id}`,
        webhookId: id,
        workspaceId: ws,
        // msg_<hook>:<n>, so the receiver knows whose it is and in what order it was made
        messageId: `msg_${id}:${String(n).padStart(3, '0')}`,
        eventType: 'item.updated',
        now: 1000,
        position: BigInt(hookIndex * 100 + n + 1),
        source: { streamId: `item-${ws}.APP-${itemOf(n)}`, revision: n },
        payload: '{}',
        correlationId: null,
      });
      await deliveriesOf(store).insertOne(doc);
      dispatcher.enqueue(doc);
    },
    answerAll() {
      holds = false;
      for (const answer of holding.splice(0)) answer();
    },
    async until(check: () => boolean) {
      const deadline = Date.now() + 10_000;
      while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    },
  };
}

describe('When many tenants’ receivers hold every request open', () => {
  it('keeps at most WEBHOOK_MAX_IN_FLIGHT attempts in flight, fails none, and later delivers every message in its item’s order', async () => {
    const bench = await worker();
    try {
      for (let n = 0; n < MESSAGES; n++) {
        for (let h = 0; h < HOOKS.length; h++) await bench.message(h, n);
      }
      await bench.until(() => bench.holding.length === MAX_IN_FLIGHT);
      await new Promise((r) => setTimeout(r, 100)); // room for a fourth, were it let through
      expect(bench.holding, 'requests held open').to.have.length(MAX_IN_FLIGHT);
      expect(bench.peak(), 'attempts in flight at once').to.equal(MAX_IN_FLIGHT);
      // those that wait are not failed meanwhile: every delivery is pending, none has an attempt
      const waiting = await deliveriesOf(bench.store).find({ status: 'pending', attemptCount: 0 });
      expect(waiting, 'deliveries pending, no attempt recorded').to.have.length(
        HOOKS.length * MESSAGES,
      );

      bench.answerAll();
      const total = () => [...bench.sent.values()].reduce((sum, ids) => sum + ids.length, 0);
      await bench.until(() => total() === HOOKS.length * MESSAGES);
      expect(bench.peak(), 'attempts in flight at once').to.equal(MAX_IN_FLIGHT);
      for (const [hookId, ids] of bench.sent) {
        expect(new Set(ids).size, `messages to ${hookId}`).to.equal(MESSAGES);
        for (let item = 0; item < 3; item++) {
          const ofItem = ids.filter((id) => itemOf(Number(id.split(':')[1])) === item);
          expect(ofItem, `${hookId}, item ${item}`).to.deep.equal([...ofItem].sort());
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
