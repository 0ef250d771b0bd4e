/**
 * The projection engine when KurrentDB goes away and when it is stopped mid-flush. Audit
 * (production shape): a dropped KurrentDB connection stopped the engine for good ("projection
 * engine stopped: 14 UNAVAILABLE: Connection dropped"); expected: "the projection engine pauses
 * and resumes by itself as it does when MongoDB goes away". And the CLI printed "projection
 * engine stopped: Operation interrupted because client was closed" on every command: stop()
 * must wait for a checkpoint flush already in progress.
 */
import { PassThrough } from 'node:stream';
import { UnavailableError } from '@kurrent/kurrentdb-client';
import { expect } from 'chai';
import { createSubscription } from '../../src/eventstore/kurrentdb/subscription.js';
import type { EventStore, Subscription } from '../../src/eventstore/types.js';
import { createProjectionEngine, type ProjectionEngine } from '../../src/read/projection-engine.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
import { counter, counterProjector } from '../support/counter.js';
import { openTestStores, type TestStores } from '../support/stores.js';

const ctx = { actor: 'u', now: 1 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The KurrentDB adapter's subscription over a gRPC call that drops at once (14 UNAVAILABLE). */
function droppedSubscription(): Subscription {
  return createSubscription(
    () => {
      const call = Object.assign(new PassThrough({ objectMode: true }), {
        unsubscribe: async () => {},
      });
      const dropped = Object.assign(new Error('14 UNAVAILABLE: Connection dropped'), {
        code: 14,
        details: 'Connection dropped',
      });
      setImmediate(() => call.destroy(new UnavailableError(dropped as never)));
      return call;
    },
    () => undefined,
  );
}

describe('Projection engine and the event store connection', () => {
  let stores: TestStores;
  let engine: ProjectionEngine | undefined;
  const errors: string[] = [];
  beforeEach(async () => {
    stores = await openTestStores();
    errors.length = 0;
  });
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    await stores.cleanup();
  });

  const increment = (stream: string, by: number) =>
    createCommandHandler(stores.eventStore).handle(stream, counter, { type: 'Increment', by }, ctx);
  function start(eventStore: EventStore, readStore: ReadStore, flushIntervalMs?: number) {
    engine = createProjectionEngine({
      eventStore,
      readStore,
      projectors: [counterProjector()],
      logger: { info() {}, error: (message: string) => errors.push(message) },
      ...(flushIntervalMs !== undefined ? { flushIntervalMs } : {}),
    });
    return engine.start();
  }

  describe('When the KurrentDB connection drops (14 UNAVAILABLE)', () => {
    it('pauses, subscribes again from its checkpoints and applies each event once', async () => {
      const real = stores.eventStore;
      let subscriptions = 0;
      const flaky: EventStore = Object.assign(Object.create(real), {
        subscribeToAll: (...args: Parameters<EventStore['subscribeToAll']>) =>
          ++subscriptions === 1 ? droppedSubscription() : real.subscribeToAll(...args),
      });
      await increment('counter-1', 2);
      await start(flaky, stores.readStore);
      const { position } = await increment('counter-1', 3);
      await engine!.waitFor(position!, 5_000);
      expect(subscriptions).to.be.at.least(2);
      expect(
        await stores.readStore.collection('counters').findOne({ _id: 'counter-1' }),
      ).to.include({ total: 5, events: 2 });
      expect(errors.some((e) => e.startsWith('projection engine stopped'))).to.equal(false);
      expect(errors.some((e) => e.startsWith('projection engine paused'))).to.equal(true);
    });
  });

  describe('When it is stopped while a checkpoint flush is under way', () => {
    it('waits for the flush before returning and logs no error', async () => {
      const real = stores.readStore;
      let closed = false;
      let flushing = false;
      let flushed = 0;
      // a MongoDB flush takes a while; once the stores close, one still running fails
      const slow: ReadStore = Object.assign(Object.create(real), {
        async flush(...args: Parameters<ReadStore['flush']>) {
          flushing = true;
          await sleep(100);
          flushing = false;
          if (closed) throw new Error('Operation interrupted because client was closed');
          flushed++;
          return real.flush(...args);
        },
      });
      await start(stores.eventStore, slow, 0);
      const { position } = await increment('counter-2', 1);
      await engine!.waitFor(position!);
      while (!flushing) await sleep(5);
      await engine!.stop();
      engine = undefined;
      closed = true; // what the CLI does next
      expect(flushing, 'the flush under way finished before stop() returned').to.equal(false);
      await sleep(150);
      expect(flushed).to.be.at.least(1);
      expect(errors).to.deep.equal([]);
      expect((await real.checkpoints()).get('counters')).to.equal(position);
    });
  });
});
