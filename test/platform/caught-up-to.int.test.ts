/**
 * ServiceContext.caughtUpTo (src/platform/service.ts), the wait of work that is no request's: "true
 * once the read models include the log up to `position`, however long a rebuild takes; false once
 * `signal` aborts or the process stops first. No timeout". Having no timeout, only a stop ends a
 * wait for a position the read models do not reach: in the process that projects (role `all`) the
 * engine's waiter list holds it; in an API process (role `api`) the checkpoint waiter polls the
 * read store for it, and would go on polling the closed store after the stop.
 */
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { silentLogger } from '../../src/platform/logger.js';
import { type Role, type Runtime, startRuntime } from '../../src/platform/runtime.js';
import type { ServiceModule } from '../../src/platform/service.js';
import { counterProjector } from '../support/counter.js';
import { TEST_SETTINGS } from '../support/runtime.js';
import { tempDir } from '../support/stores.js';
import { rmSync } from 'node:fs';

/** one read model and an app that answers nothing: the runtime's own machinery is under test */
const probe: ServiceModule = {
  name: 'probe',
  port: () => 0,
  boot: () => ({
    projectors: [counterProjector('probes')],
    createApp: async () => ({
      app: (_req, res) => res.end(),
      onClientError: () => undefined,
    }),
  }),
};

/** what the promise settled to within `ms`, or 'pending' */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'pending'>((resolve) => {
    timer = setTimeout(() => resolve('pending'), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

for (const role of ['all', 'api'] as const satisfies readonly Role[]) {
  describe(`When a worker waits without a timeout for read models that do not get there (role ${role})`, () => {
    let dir: string;
    let runtime: Runtime | undefined;
    beforeEach(async () => {
      dir = tempDir('caught-up-to-');
      const config = loadConfig({
        ...TEST_SETTINGS,
        FEEDBACK_PORT: '0',
        NOTES_PORT: '0',
        DATA_DIR: dir,
        PROJECTION_WAIT_MS: '100',
      });
      runtime = await startRuntime({ config, role, services: [probe], logger: silentLogger });
    });
    afterEach(async () => {
      await runtime?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    const beyondTheLog = async () => (await runtime!.stores.eventStore.headPosition()) + 1000n;

    it('the process stop ends the wait with false; until then it outlasts PROJECTION_WAIT_MS', async () => {
      const waiting = runtime!.context.caughtUpTo(
        await beyondTheLog(),
        new AbortController().signal,
      );
      // a request's wait (PROJECTION_WAIT_MS 100) would have failed by now
      expect(await settledWithin(waiting, 400)).to.equal('pending');
      const stopping = runtime!.stop();
      runtime = undefined;
      expect(await settledWithin(waiting, 2_000), 'the wait after the stop').to.equal(false);
      await stopping;
    });

    it('its signal ends the wait with false', async () => {
      const signal = new AbortController();
      const waiting = runtime!.context.caughtUpTo(await beyondTheLog(), signal.signal);
      expect(await settledWithin(waiting, 200)).to.equal('pending');
      signal.abort();
      expect(await settledWithin(waiting, 2_000), 'the wait after the abort').to.equal(false);
    });
  });
}
