/**
 * src/platform/runtime.ts, startRuntime's `signal`: "gives the start up: a standby projector waits
 * in it for the lease; aborted, the start closes what it opened and rejects with the signal's
 * reason". A library user had no way to end a standby's start: it returns only once the lease is
 * its own, so there was no runtime to stop.
 */
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { startRuntime } from '../../src/platform/runtime.js';
import { logLines } from '../support/log-lines.js';
import { tempDir } from '../support/stores.js';

describe('When a library gives up a standby projector’s start (e2e)', function () {
  this.timeout(60_000);
  const dir = tempDir('standby-abort-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects with the signal’s reason and closes its ops listener', async () => {
    const config = loadConfig({ DATA_DIR: dir, OPS_PORT: '0', PROJECTOR_LEASE_MS: '1000' });
    const first = await startRuntime({
      config,
      role: 'projector',
      services: [],
      logger: logLines().logger,
    });
    try {
      const log = logLines();
      const giveUp = new AbortController();
      const standby = startRuntime({
        ...{ config, role: 'projector' as const, services: [] },
        logger: log.logger,
        signal: giveUp.signal,
      });
      standby.catch(() => {});
      const url = String((await log.find((line) => line.msg === 'ops listening', 20_000))?.url);
      expect(
        await log.find((line) => String(line.msg).startsWith('standing by'), 5_000),
      ).to.not.equal(undefined);
      giveUp.abort(new Error('given up'));
      const outcome = await Promise.race([
        standby.then(
          () => 'started',
          (error: Error) => error.message,
        ),
        new Promise((resolve) => setTimeout(resolve, 5_000, 'still waiting for the lease')),
      ]);
      expect(outcome).to.equal('given up');
      const refused = await fetch(`${url}/healthz`).then(
        () => 'answered',
        () => 'refused',
      );
      expect(refused, 'the ops listener outlived the start').to.equal('refused');
    } finally {
      await first.stop();
    }
  });
});
