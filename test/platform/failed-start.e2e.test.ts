/**
 * A start that fails after it opened something closes what it opened (src/platform/runtime.ts):
 * "when startRuntime fails after opening anything, close what was opened in reverse order, then
 * rethrow the original error; the cleanup's own errors are logged, never mask the cause". The
 * entry points exit right after; a library user (a test, an embedding host, a supervisor that
 * retries in-process) was left with OPS_PORT listening, the data directory's lock and the
 * projector lease held, so a retry failed with EADDRINUSE or "data dir locked".
 * The late failure is one an operator meets: DATA_DIR/secret damaged (read when the services'
 * context is built, after the stores, OPS_PORT, the lease and the projections), or a service's
 * port taken by another listener.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { createUser } from '../../src/feedback/actions/index.js';
import { createFeedbackService } from '../../src/feedback/service.js';
import { type Logger, silentLogger } from '../../src/platform/logger.js';
import { type Role, type Runtime, startRuntime } from '../../src/platform/runtime.js';
import type { ServiceModule } from '../../src/platform/service.js';
import { serviceModules } from '../../src/services.js';
import { fillDisk } from '../support/full-disk.js';
import { logLines } from '../support/log-lines.js';
import { bindAgain, freePort, listenOnFreePort } from '../support/ports.js';
import { tempDir } from '../support/stores.js';

const DAMAGED = /the file "secret" is empty or damaged/;

function start(role: Role, env: Record<string, string>, options: Partial<StartOptions> = {}) {
  const config = loadConfig({ FEEDBACK_PORT: '0', NOTES_PORT: '0', DEV_MODE: 'true', ...env });
  const { services = serviceModules(), logger = silentLogger } = options;
  return startRuntime({ config, role, services, logger });
}
interface StartOptions {
  services: ServiceModule[];
  logger: Logger;
}

const failureOf = (started: Promise<Runtime>) =>
  started.then(
    async (runtime) => {
      await runtime.stop();
      return expect.fail('started');
    },
    (error: unknown) => error as Error & { code?: string },
  );

const listen = (port: number): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
const close = (server: Server) => new Promise((resolve) => server.close(resolve));

/** the second start, bounded: one standing by for a lease nobody releases never ends */
const within = <T>(ms: number, what: () => string, promise: Promise<T>) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(what())), ms).unref()),
  ]);

describe('When a start fails after it opened the stores (e2e)', function () {
  this.timeout(90_000);
  const dirs: string[] = [];
  const dir = (secret?: string) => {
    dirs.push(tempDir('failed-start-'));
    if (secret !== undefined) writeFileSync(join(dirs.at(-1)!, 'secret'), secret);
    return dirs.at(-1)!;
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  describe('a projector with OPS_PORT, on a damaged DATA_DIR/secret', () => {
    let env: Record<string, string>;
    let error: Error;
    before(async () => {
      // a lease kept would hold the next start back a minute, not the default 5 s
      env = { DATA_DIR: dir(''), OPS_PORT: String(await freePort()), PROJECTOR_LEASE_MS: '60000' };
      error = await failureOf(bindAgain(() => start('projector', env)));
    });

    it('rejects with the start’s own error and frees OPS_PORT: another listener takes it', async () => {
      expect(error.message).to.match(DAMAGED);
      await close(await bindAgain(() => listen(Number(env.OPS_PORT))));
    });

    it('starts again in the same process once the file is repaired, on the same port', async () => {
      rmSync(join(env.DATA_DIR, 'secret'));
      // the failed start's lease was released: this one takes it at once instead of standing by
      const again = await within(
        15_000,
        () => 'the second start stood by for 15 s: the failed start kept the projector lease',
        bindAgain(() => start('projector', env)),
      );
      expect(again.urls.get('ops')).to.equal(`http://127.0.0.1:${env.OPS_PORT}`);
      expect((await again.stop()).failed).to.deep.equal([]);
    });
  });

  describe('a server (role all) on a damaged DATA_DIR/secret', () => {
    it('releases the data directory: a second server starts on it in the same process', async () => {
      const env = { DATA_DIR: dir('x') };
      expect((await failureOf(start('all', env))).message).to.match(DAMAGED);
      rmSync(join(env.DATA_DIR, 'secret'));
      const again = await bindAgain(() => start('all', env));
      expect((await again.stop()).failed).to.deep.equal([]);
    });
  });

  describe('a server whose NOTES_PORT another listener holds (EADDRINUSE)', () => {
    it('rejects with EADDRINUSE, frees FEEDBACK_PORT and starts again once NOTES_PORT is free', async () => {
      const taken = createServer();
      const notesPort = await listenOnFreePort(taken);
      const env = {
        DATA_DIR: dir(),
        FEEDBACK_PORT: String(await freePort()),
        NOTES_PORT: String(notesPort),
      };
      try {
        const error = await failureOf(start('all', env));
        expect(error.code).to.equal('EADDRINUSE');
        await close(await bindAgain(() => listen(Number(env.FEEDBACK_PORT))));
      } finally {
        await close(taken);
      }
      const again = await bindAgain(() => start('all', env));
      expect((await again.stop()).failed).to.deep.equal([]);
    });
  });

  describe('a server whose disk fills up while a service’s app is built', () => {
    it('rejects with the app’s error, logs the cleanup’s failed step and frees the data directory', async () => {
      const log = logLines('info');
      // a service of an embedding host whose app cannot be built; by then the disk is full, and
      // a sign-up the projections applied is only in memory: the engine's last flush fails
      const broken: ServiceModule = {
        name: 'broken',
        port: () => 0,
        boot: () => ({
          projectors: [],
          async createApp(ctx) {
            fillDisk(ctx.stores.readStore);
            const deps = { commandHandler: ctx.commandHandler, readStore: ctx.stores.readStore };
            const signUp = { email: 'owner@acme.io', displayName: 'Owner' };
            const { position } = await createUser(deps, { actor: 'test', now: Date.now() }, signUp);
            await ctx.waitFor(position!);
            throw new Error('the broken app cannot be built');
          },
        }),
      };
      const services = [createFeedbackService(), broken];
      const env = { DATA_DIR: dir() };
      const started = start('all', env, { services, logger: log.logger });
      expect((await failureOf(started)).message).to.equal('the broken app cannot be built');
      const failed = log.lines.filter((l) => l.msg === 'stop step failed');
      expect(failed.map((l) => l.step)).to.include('projection engine');
      expect(failed[0]!.cause).to.match(/full/);
      const again = await bindAgain(() => start('all', env));
      expect((await again.stop()).failed).to.deep.equal([]);
    });
  });

  describe('a process whose only work was the failed start', () => {
    it('ends on its own: nothing the start opened keeps it alive', async () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'test/platform/support/failed-start-child.ts'],
        {
          env: { ...process.env, DATA_DIR: dir(''), OPS_PORT: '0', DEV_MODE: 'true' },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
      });
      const ended = new Promise<number | null>((resolve) => child.on('exit', resolve));
      try {
        const code = await within(
          45_000,
          () => `still running 45 s on after printing: ${out}`,
          ended,
        );
        expect(code).to.equal(0);
        expect(JSON.parse(out).error).to.match(DAMAGED);
      } finally {
        child.kill('SIGKILL');
      }
    });
  });
});
