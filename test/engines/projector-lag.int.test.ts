/**
 * Projector lag on KurrentDB (EVENTSTORE_URL; the `api` role also on MongoDB, MONGODB_URL). Its
 * positions are commit << 64 | prepare, so `head - checkpoint` put one event behind at ~1.8e21 in
 * `/readyz` and in `projector_lag_events`. The brief: lag must be "a count of events of the log a
 * projector has not applied yet, on every event store". Another run may append to the shared
 * server meanwhile, so a lag is checked as at least ours and far below a position distance.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { checkpointId, type Projector } from '../../projections/shared/projector.js';
import { loadConfig } from '../../src/config/load.js';
import { openKurrentEventStore } from '../../src/eventstore/kurrentdb/index.js';
import type { EventStore } from '../../src/eventstore/types.js';
import { createFeedbackService } from '../../src/feedback/service.js';
import { silentLogger } from '../../src/platform/logger.js';
import { type Runtime, startRuntime } from '../../src/platform/runtime.js';
import { createProjectionEngine } from '../../src/read/projection-engine.js';
import { openEmbeddedReadStore } from '../../src/readstore/embedded/index.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { event } from '../eventstore/contract-fixtures.js';
import { gatedProjector, withProjector } from '../support/gated-projector.js';
import { tempDir } from '../support/stores.js';

const eventStoreUrl = process.env.EVENTSTORE_URL;
const mongoUrl = process.env.MONGODB_URL;
const RUN = `lag${randomUUID().replaceAll('-', '').slice(0, 10)}`;
/** far more than a concurrent run appends in a second, far less than 2^64 */
const SMALL = 1000;

/** three appends of one event each: three events behind `before` */
async function appendThree(store: EventStore, stream: string): Promise<bigint> {
  let last = 0n;
  for (let i = 0; i < 3; i++)
    last = (await store.appendToStream(stream, [event('Probed')])).position;
  return last;
}

const lagOf = (projectors: { name: string; lag: string }[], name: string) =>
  projectors.find((p) => p.name === name)?.lag;

if (!eventStoreUrl) {
  describe('Projector lag on KurrentDB', () => {
    it('EVENTSTORE_URL not set: skipped', function () {
      console.log('      EVENTSTORE_URL not set: projector lag on KurrentDB skipped');
      this.skip();
    });
  });
} else {
  describe('Projector lag on KurrentDB: the projection engine (int)', function () {
    this.timeout(60_000);
    const dir = tempDir('lag-kurrent-');
    const gate = gatedProjector('lagprobe', `${RUN}-`);
    let store: EventStore;
    let readStore: ReadStore;
    let engine: ReturnType<typeof createProjectionEngine>;
    let start = 0n;
    let last = 0n;

    before(async () => {
      store = await openKurrentEventStore({ connectionString: eventStoreUrl });
      readStore = await openEmbeddedReadStore({ path: join(dir, 'read.sqlite') });
      start = await store.headPosition();
      // start at the head, not at the beginning of a log other runs share
      await readStore.flush(new Map([[checkpointId(gate.projector), start]]));
      engine = createProjectionEngine({
        eventStore: store,
        readStore,
        projectors: [gate.projector],
        logger: { info() {}, error() {} },
      });
      await engine.start();
      last = await appendThree(store, `${RUN}-probe`);
      await gate.reached;
    });
    after(async () => {
      gate.release();
      await engine?.stop();
      await readStore?.close();
      await store?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('reports a projector three events behind as about 3, not ~5.5e21', async () => {
      const status = await engine.status();
      console.log(`      status while held: ${JSON.stringify(status)}`);
      expect(status.projectors[0].checkpoint).to.equal(start.toString());
      expect(BigInt(status.head) >= last).to.equal(true);
      const lag = Number(status.projectors[0].lag);
      expect(lag).to.be.at.least(3).and.below(SMALL);
    });

    it('falls back once the projector has applied them', async () => {
      gate.release();
      await engine.waitFor(last);
      const status = await engine.status();
      console.log(`      status after: ${JSON.stringify(status.projectors)}`);
      expect(Number(status.projectors[0].lag)).to.be.at.least(0).and.below(SMALL);
    });
  });

  (mongoUrl ? describe : describe.skip)(
    'Projector lag on KurrentDB: /readyz of an api process, checkpoints in MongoDB (e2e)',
    function () {
      this.timeout(120_000);
      const dir = tempDir('lag-api-');
      let runtime: Runtime;
      let projectors: readonly Projector[] = [];
      let last = 0n;

      before(async () => {
        const probe = gatedProjector('lagprobe', `${RUN}-api-`).projector;
        const service = withProjector(createFeedbackService(), probe, (all) => {
          projectors = all;
        });
        const config = loadConfig({
          DATA_DIR: dir,
          EVENTSTORE_URL: eventStoreUrl,
          MONGODB_URL: mongoUrl!,
          MONGODB_DATABASE: `lag_${RUN}`,
          FEEDBACK_PORT: '0',
          LOG_LEVEL: 'error',
          DEV_MODE: 'true',
          APP_SECRET: 'a-test-secret-for-the-lag-test-0123456789abcdef',
        });
        runtime = await startRuntime({
          config,
          role: 'api',
          services: [service],
          logger: silentLogger,
        });
        const start = await runtime.stores.eventStore.headPosition();
        // every projector stood at `start` (a projector process stopped there)
        await runtime.stores.readStore.flush(
          new Map(projectors.map((p) => [checkpointId(p), start])),
        );
        last = await appendThree(runtime.stores.eventStore, `${RUN}-api-probe`);
      });
      after(async () => {
        await runtime?.stop();
        rmSync(dir, { recursive: true, force: true });
      });

      it('/readyz and /metrics report every projector about 3 events behind', async () => {
        const url = runtime.urls.get('feedback')!;
        const ready = (await (await fetch(`${url}/readyz`)).json()) as {
          projections: { head: string; projectors: { name: string; lag: string }[] };
        };
        const { projections } = ready;
        console.log(`      /readyz lags: ${JSON.stringify(projections.projectors.slice(0, 3))} …`);
        expect(BigInt(projections.head) >= last).to.equal(true);
        expect(projections.projectors).to.have.length(projectors.length);
        for (const p of projections.projectors)
          expect(Number(p.lag), p.name).to.be.at.least(3).and.below(SMALL);
        const text = await (await fetch(`${url}/metrics`)).text();
        const gauge = /^projector_lag_events\{projector="lagprobe"\} (\S+)$/m.exec(text);
        console.log(`      ${gauge?.[0]}`);
        expect(Number(gauge?.[1])).to.be.at.least(3).and.below(SMALL);
        expect(lagOf(projections.projectors, 'lagprobe')).to.match(/^\d+$/);
      });
    },
  );
}
