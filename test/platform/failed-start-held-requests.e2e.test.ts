/**
 * A request that reached a service's port while the start was still building its app waits for
 * the app (http-server.ts). When the start then fails, that app never comes: the failed start's
 * cleanup (runtime.ts) used to wait the stop's whole 10 s grace on such requests, then cut them
 * unanswered. They are answered 503 in the error envelope, and the start rejects without the wait.
 */
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { silentLogger } from '../../src/platform/logger.js';
import { startRuntime } from '../../src/platform/runtime.js';
import type { ServiceModule } from '../../src/platform/service.js';
import { tempDir } from '../support/stores.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('When a start fails with requests held on a port that was booting (e2e)', function () {
  this.timeout(30_000);
  const dir = tempDir('failed-start-held-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers them 503 and rejects without waiting the 10 s shutdown grace', async () => {
    let held: Promise<{ status: number; body: unknown }> | undefined;
    // a service of an embedding host whose app cannot be built, once a client already asked
    const broken: ServiceModule = {
      name: 'broken',
      port: () => 0,
      boot: () => ({
        projectors: [],
        async createApp(_ctx, { port }) {
          held = fetch(`http://127.0.0.1:${port}/anything`).then(async (res) => ({
            status: res.status,
            body: await res.json(),
          }));
          held.catch(() => {});
          await pause(500);
          throw new Error('the broken app cannot be built');
        },
      }),
    };
    const config = loadConfig({ DATA_DIR: dir, HOST: '127.0.0.1', DEV_MODE: 'true' });
    const begun = performance.now();
    const failed = await startRuntime({
      config,
      role: 'all',
      services: [broken],
      logger: silentLogger,
    }).catch((error: Error) => error);
    const tookMs = performance.now() - begun - 500;

    expect(String(failed)).to.match(/the broken app cannot be built/);
    expect(await held).to.deep.equal({
      status: 503,
      body: { error: 'the service could not start; try again later', code: 'resource-exhausted' },
    });
    expect(tookMs, 'ms the failed start took past its app').to.be.below(5_000);
  });
});
