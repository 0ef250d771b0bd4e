/**
 * A projector paused past its lease (GC, SIGSTOP, a laptop asleep) and woken after another took
 * over must not move the stored checkpoints back (src/readstore/types.ts, `flush`: "A checkpoint
 * only moves forward: one given behind the stored one leaves it as it is"). Its flush was on the
 * way when it stopped; the one that took over has since stored newer checkpoints; written over
 * them, the next holder replays those events and an API process's read-your-writes wait, which
 * polls the stored checkpoints, sees them go back.
 *
 * Two engines, each under the projector lease, over one embedded read store (the lease in it, as
 * on MongoDB, where the split roles share it). The MongoDB adapter runs the same engine code and
 * its `flush` passes the same rule in the read-store contract (test/readstore/mongodb.int.test.ts).
 */
import { expect } from 'chai';
import { type Lease, leaseIn } from '../../src/platform/lease.js';
import { silentLogger } from '../../src/platform/logger.js';
import { createProjectionEngine, type ProjectionEngine } from '../../src/read/projection-engine.js';
import {
  type HeldLease,
  holdProjectorLease,
  PROJECTOR_LEASE,
} from '../../src/read/projector-lease.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
import { counter, counterProjector } from '../support/counter.js';
import { openTestStores, type TestStores } from '../support/stores.js';

const LEASE_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('A projector paused past its lease (integration)', function () {
  this.timeout(20_000);
  let stores: TestStores;
  const engines: ProjectionEngine[] = [];
  const leases: HeldLease[] = [];
  beforeEach(async () => {
    stores = await openTestStores();
  });
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.stop().catch(() => {});
    for (const lease of leases.splice(0)) await lease.release();
    await stores.cleanup();
  });

  it('does not store its older checkpoint over the newer one of the projector that took over', async () => {
    const real = stores.readStore;
    const increment = async () =>
      (
        await createCommandHandler(stores.eventStore).handle(
          'counter-1',
          counter,
          { type: 'Increment', by: 1 },
          { actor: 'u', now: 1 },
        )
      ).position!;
    // every checkpoint the store holds after a flush lands, as an API process polling it sees
    const seen: bigint[] = [];
    const watched = async (...args: Parameters<ReadStore['flush']>) => {
      await real.flush(...args);
      seen.push((await real.checkpoints()).get('counters') ?? 0n);
    };

    // A, paused: it neither renews its lease nor lands its flush
    let paused: Promise<void> | undefined;
    let wake = () => {};
    const held = async () => {
      if (paused) await paused;
    };
    const realLease = leaseIn(real, PROJECTOR_LEASE);
    const leaseA: Lease = {
      ...realLease,
      async take(...args) {
        await held();
        return realLease.take(...args);
      },
    };
    const storeA: ReadStore = Object.assign(Object.create(real), {
      flush: async (...args: Parameters<ReadStore['flush']>) => {
        await held();
        return watched(...args);
      },
    });
    let lostA = false;
    const start = async (store: ReadStore, lease: Lease) => {
      let engine: ProjectionEngine | undefined;
      leases.push(
        await holdProjectorLease({
          lease,
          leaseMs: LEASE_MS,
          logger: silentLogger,
          onLost: () => {
            if (store === storeA) lostA = true;
            void engine?.stop();
          },
        }),
      );
      engine = createProjectionEngine({
        eventStore: stores.eventStore,
        readStore: store,
        projectors: [counterProjector()],
        flushIntervalMs: 0, // as on MongoDB: API processes poll the flushed checkpoints
        logger: { info() {}, error() {} },
      });
      engines.push(engine);
      await engine.start();
      return engine;
    };

    const a = await start(storeA, leaseA);
    await a.waitFor(await increment());
    while (seen.length === 0) await sleep(5); // A's checkpoint of the first event is stored
    paused = new Promise((resolve) => {
      wake = resolve;
    });
    const second = await increment();
    // A applied the second event and its flush is on the way when it stops
    while (a.position() < second) await sleep(5);

    // B: stands by until A's lease runs out, then takes over from the stored checkpoint
    const storeB: ReadStore = Object.assign(Object.create(real), { flush: watched });
    const b = await start(storeB, leaseIn(real, PROJECTOR_LEASE));
    await increment();
    const newest = await increment();
    await b.waitFor(newest);
    while (seen.at(-1) !== newest) await sleep(5);

    wake(); // A wakes: its flush lands, its renewal finds the lease taken
    while (!lostA) await sleep(5);
    await sleep(100);

    expect(seen.map(String), 'the stored checkpoint after each flush').to.deep.equal(
      [...seen].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)).map(String),
    );
    expect((await real.checkpoints()).get('counters')).to.equal(newest);
    expect(await real.collection('counters').findOne({ _id: 'counter-1' })).to.include({
      total: 4,
      events: 4,
    });
  });
});
