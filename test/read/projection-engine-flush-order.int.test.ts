/**
 * The projection engine's checkpoint flushes land in the order the events applied. Found by the
 * notes model against a split deployment (MODEL_TARGET=split): writes answered 503 "the read
 * models did not reach position …" after 10 s although the projector had applied the event in
 * 6 ms. On MongoDB each quiet spell starts a flush at once (flushIntervalMs 0), so an event
 * applied while the previous flush was still on the wire started a second one; the two went out
 * on two pooled connections, the older checkpoints were stored last, and every API process's
 * read-your-writes wait (which polls the stored checkpoints) stayed below the newer event until
 * another event came. DESIGN.md: "a command's HTTP response is sent only after the projections
 * it affects have caught up to the command's position".
 */
import { expect } from 'chai';
import { createProjectionEngine, type ProjectionEngine } from '../../src/read/projection-engine.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
import { counter, counterProjector } from '../support/counter.js';
import { openTestStores, type TestStores } from '../support/stores.js';

const ctx = { actor: 'u', now: 1 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Projection engine checkpoint flushes (read-your-writes across processes)', () => {
  let stores: TestStores;
  let engine: ProjectionEngine | undefined;
  beforeEach(async () => {
    stores = await openTestStores();
  });
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    await stores.cleanup();
  });

  it('stores the newest checkpoint last when an event applies while a flush is on the wire', async () => {
    const real = stores.readStore;
    let flushes = 0;
    let onWire = false;
    // the first flush takes 150 ms to land, the later ones land at once (another connection)
    const pooled: ReadStore = Object.assign(Object.create(real), {
      async flush(...args: Parameters<ReadStore['flush']>) {
        const first = ++flushes === 1;
        onWire = true;
        if (first) await sleep(150);
        onWire = false;
        return real.flush(...args);
      },
    });
    engine = createProjectionEngine({
      eventStore: stores.eventStore,
      readStore: pooled,
      projectors: [counterProjector()],
      flushIntervalMs: 0, // as on MongoDB: an API process polls the flushed checkpoints
      logger: { info() {}, error() {} },
    });
    await engine.start();
    const increment = () =>
      createCommandHandler(stores.eventStore).handle(
        'counter-1',
        counter,
        { type: 'Increment', by: 1 },
        ctx,
      );
    await engine.waitFor((await increment()).position!);
    while (!onWire) await sleep(1);
    const { position: newest } = await increment();
    await engine.waitFor(newest!);
    await sleep(400); // both flushes have landed, and nothing else comes
    expect((await real.checkpoints()).get('counters'), 'the stored checkpoint').to.equal(newest);
  });
});
