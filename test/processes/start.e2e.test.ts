/**
 * Issue 2: "A corrupted or unreadable data file stops the process at start with a clear error;
 * it never silently starts empty." and "Config: ... fail fast with a clear message."
 * README, Configuration: "a bad value stops the process with one line on stderr naming the key
 * and what is wrong with it, exit code 1".
 * The real entry point (`npm start` runs src/processes/all.ts) as a child process.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { listenOnFreePort } from '../support/ports.js';
import { runCli, startProcess, startScript } from '../support/processes.js';
import { tempDir } from '../support/stores.js';
import { ours, refusal, runToExit as start } from './support.js';

/** nobody: a user that cannot write where this one (root, in a container) can */
const OTHER_USER = { uid: 65534, gid: 65534 };
const asRoot = process.getuid?.() === 0;

describe('Starting the services (npm start)', function () {
  this.timeout(40_000);
  let dir: string;
  beforeEach(() => {
    dir = tempDir('start-');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('When the data file is not a store', () => {
    it('stops with one clear line naming the file and leaves the file untouched', async () => {
      const file = join(dir, 'store.sqlite');
      const garbage = Buffer.from(
        'this is not a SQLite database, but somebody’s notes'.repeat(100),
      );
      writeFileSync(file, garbage);
      const { code, stderr } = await start({ DATA_DIR: dir });
      expect(code).to.equal(1);
      const line = stderr.split('\n').find((l) => l.startsWith('cannot start:'));
      expect(line).to.match(/store\.sqlite.*refusing to start empty/);
      expect(stderr).not.to.match(/\n\s+at /); // no stack trace
      expect(readFileSync(file).equals(garbage)).to.equal(true);
    });
  });

  describe('When the configuration is bad', () => {
    it('stops before opening anything and names the key', async () => {
      const { code, stderr } = await start({ DATA_DIR: dir, FEEDBACK_PORT: 'eighty' });
      expect(code).to.equal(1);
      expect(refusal({ code, stderr })).to.match(
        /^cannot start: invalid configuration: FEEDBACK_PORT:/,
      );
    });

    it("writes oidc-provider's notices held for the logger with the refusal", async function () {
      // src/platform/library-notices.ts holds them until the logger is made; a bad setting
      // refuses before there is one. oidc-provider warns at import on a runtime older than
      // Node.js 22 (its release line 'Jod'); on a newer one it has nothing to say here
      const lts = process.release.lts;
      if (lts && lts >= 'Jod') this.skip();
      const { code, stderr } = await start({ DATA_DIR: dir, FEEDBACK_PORT: 'eighty' });
      expect(code).to.equal(1);
      expect(stderr).to.match(/^oidc-provider WARNING: Unsupported runtime\..*$/m);
      expect(refusal({ code, stderr })).to.match(/^cannot start: invalid configuration/);
    });

    it('names SMTP_URL when it is not a URL', async () => {
      const line = refusal(await start({ DATA_DIR: dir, SMTP_URL: 'smtp://u:p@[bad' }));
      expect(line).to.equal(
        'cannot start: invalid configuration: SMTP_URL: must be an smtp:// or smtps:// URL (smtp://user:password@host:port)',
      );
    });

    it('refuses a port that is not in plain decimal digits instead of reading it as hex', async () => {
      // 0xB940 is 47424: read as a number it would listen there
      const line = refusal(await start({ DATA_DIR: dir, FEEDBACK_PORT: '0xB940' }));
      expect(line).to.equal(
        'cannot start: invalid configuration: FEEDBACK_PORT: must be a whole number in decimal digits',
      );
    });
  });

  describe('When DATA_DIR cannot hold the data', () => {
    it('names DATA_DIR when it is a regular file', async () => {
      const file = join(dir, 'not-a-folder');
      writeFileSync(file, 'notes');
      expect(refusal(await start({ DATA_DIR: file }))).to.equal(
        `cannot start: DATA_DIR=${file}: is a file, not a folder`,
      );
      expect(readFileSync(file, 'utf8')).to.equal('notes');
    });

    it('names DATA_DIR when this user cannot write to the folder or make it', async () => {
      // as root the process runs as another user: root itself may write anywhere
      const locked = join(dir, 'locked');
      mkdirSync(locked);
      chmodSync(dir, 0o755);
      chmodSync(locked, 0o555);
      const user = asRoot ? OTHER_USER : {};
      expect(refusal(await start({ DATA_DIR: locked }, user))).to.equal(
        `cannot start: DATA_DIR=${locked}: this user cannot write to the folder`,
      );
      expect(refusal(await start({ DATA_DIR: join(locked, 'data') }, user))).to.equal(
        `cannot start: DATA_DIR=${join(locked, 'data')}: this user cannot create the folder in ${locked}`,
      );
    });

    it('refuses a folder or data file its owner marked read-only, also as root, and changes neither', async () => {
      // README, Files: "made mode 0700 and its files 0600 at every start"; a copy marked
      // read-only (no write bit for its owner) was chmodded and written by a start as root
      const marked = (what: string, mode: string) =>
        `cannot start: DATA_DIR=${dir}: ${what} is marked read-only (mode ${mode}: no write bit for its owner), so it is not served or written; make it writable (chmod u+w) to use it, or read it with \`npm run cli -- verify\` or \`export\`, which leave it as it is`;
      writeFileSync(join(dir, 'store.sqlite'), '');
      chmodSync(join(dir, 'store.sqlite'), 0o444);
      chmodSync(dir, 0o555);
      expect(refusal(await start({ DATA_DIR: dir }))).to.equal(marked('the folder', '0555'));
      expect(statSync(dir).mode & 0o777).to.equal(0o555);
      chmodSync(dir, 0o700);
      expect(refusal(await start({ DATA_DIR: dir }))).to.equal(marked('store.sqlite', '0444'));
      expect(statSync(join(dir, 'store.sqlite')).mode & 0o777).to.equal(0o444);
      expect(statSync(join(dir, 'store.sqlite')).size).to.equal(0);
    });

    it('names DATA_DIR when the folder is another user’s', async function () {
      if (!asRoot) {
        console.log('    not root: no folder of another user to try');
        this.skip();
      }
      chmodSync(dir, 0o777);
      expect(refusal(await start({ DATA_DIR: dir }, OTHER_USER))).to.match(
        new RegExp(`^cannot start: DATA_DIR=${dir}: the folder belongs to another user`),
      );
    });
  });

  describe('When the file system refuses the folder', () => {
    it('names DATA_DIR instead of hanging where the kernel cannot make it (/proc)', async () => {
      // Node's recursive mkdir spun forever here: the start hung with no word, at 100 % CPU
      const data = '/proc/feedback-notes-data';
      const line = refusal(await start({ DATA_DIR: data }));
      expect(line).to.equal(
        asRoot
          ? `cannot start: DATA_DIR=${data}: the folder cannot be made (ENOENT at ${data})`
          : `cannot start: DATA_DIR=${data}: this user cannot create the folder in /proc`,
      );
    });

    it('leaves the data file private (0600) when the start is refused after it was made', async () => {
      // the embedded event log is made, then the read store cannot be reached: refused
      const { code } = await start({ DATA_DIR: dir, MONGODB_URL: 'mongodb://127.0.0.1:9/x' });
      expect(code).to.equal(1);
      expect(statSync(join(dir, 'store.sqlite')).mode & 0o777).to.equal(0o600);
    });
  });

  describe('When the servers cannot listen', () => {
    it('names both port keys when they are the same port', async () => {
      const line = refusal(
        await start({ DATA_DIR: dir, FEEDBACK_PORT: '47412', NOTES_PORT: '47412' }),
      );
      expect(line).to.equal(
        'cannot start: FEEDBACK_PORT and NOTES_PORT are both 47412: each service listens on a port of its own',
      );
    });

    it('names HOST when the name does not resolve', async () => {
      const line = refusal(
        await start({ DATA_DIR: dir, HOST: 'bogus.invalid', SMTP_URL: 'smtp://127.0.0.1:47499' }),
      );
      expect(line).to.equal(
        'cannot start: HOST=bogus.invalid: the name does not resolve to an address (ENOTFOUND)',
      );
    });

    it('names the port key when another process listens on the port', async () => {
      // a port of the ephemeral range (47411) could be another process's connection's already
      const taken: Server = createServer();
      const port = await listenOnFreePort(taken);
      try {
        const line = refusal(await start({ DATA_DIR: dir, FEEDBACK_PORT: String(port) }));
        expect(line).to.equal(
          `cannot start: FEEDBACK_PORT=${port}: another process listens on that port`,
        );
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    });

    it('names a held NOTES_PORT before the feedback service says it listens', async () => {
      // README, Configuration: "a held `NOTES_PORT` stops the start before the feedback service
      // says it listens"; it logged "listening" (and built its app) before the port was found taken
      const taken: Server = createServer();
      const port = await listenOnFreePort(taken);
      try {
        const exit = await start({ DATA_DIR: dir, NOTES_PORT: String(port), LOG_LEVEL: 'info' });
        expect(exit.code).to.equal(1);
        expect(exit.stderr).to.contain(
          `cannot start: NOTES_PORT=${port}: another process listens on that port`,
        );
        expect(exit.stderr).not.to.contain('service listening');
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    });
  });

  // failure audit: after a crash DATA_DIR/secret came back empty and the start failed with
  // "TypeError: cursor secret must be at least 16 bytes", naming neither the file nor the fix
  describe('When DATA_DIR/secret is empty', () => {
    it('stops with one line naming the file and what to do, and leaves it as it was', async () => {
      writeFileSync(join(dir, 'secret'), '');
      const line = refusal(await start({ DATA_DIR: dir }));
      expect(line).to.match(
        /^cannot start: DATA_DIR=.*: the file "secret" is empty or damaged \(0 characters\); restore it from a backup/,
      );
      expect(readFileSync(join(dir, 'secret'), 'utf8')).to.equal('');
    });
  });

  // failure audit: two `npm start` on one DATA_DIR each kept their own embedded read store — a
  // refresh token used at one was taken again at the other, every rate limit counted twice
  describe('When another server already serves the data directory', () => {
    it('refuses to start, and starts at once after that server was killed (kill -9)', async () => {
      const first = await startProcess(dir);
      try {
        const line = refusal(await start({ DATA_DIR: dir }));
        expect(line).to.match(
          /^cannot start: DATA_DIR=.*: another server process serves this data directory\./,
        );
      } finally {
        first.child.kill('SIGKILL');
        await new Promise((resolve) => first.child.once('exit', resolve));
      }
      const second = await startProcess(dir);
      second.child.kill('SIGTERM');
      await new Promise((resolve) => second.child.once('exit', resolve));
    });

    it('refuses `npm start -- --demo` there before it seeds anything into the served data', async function () {
      // README, Running on KurrentDB + MongoDB: "A second `npm start` on the same data directory
      // is refused"; with --demo it first seeded the demo workspace and its token (443 events)
      // into the data the other server serves, then refused, the token printed nowhere
      this.timeout(120_000);
      const first = await startProcess(dir);
      try {
        const before = await runCli({ DATA_DIR: dir }, 'verify');
        const line = refusal(await start({ DATA_DIR: dir }, { args: ['--demo'] }));
        expect(line).to.match(
          /^cannot start: DATA_DIR=.*: another server process serves this data directory\./,
        );
        expect(await runCli({ DATA_DIR: dir }, 'verify'), 'the event log').to.equal(before);
      } finally {
        first.child.kill('SIGTERM');
        await new Promise((resolve) => first.child.once('exit', resolve));
      }
    });

    it('lets a second one serve it when SHARED_DATA_DIR is true', async () => {
      const env = { SHARED_DATA_DIR: 'true' };
      const both = await Promise.all([startProcess(dir, env), startProcess(dir, env)]);
      for (const { child } of both) child.kill('SIGTERM');
      await Promise.all(both.map(({ child }) => new Promise((r) => child.once('exit', r))));
    });
  });

  describe('When the services are published at public base URLs', () => {
    it('logs where each one listens beside its public URL', async () => {
      // README, Logs: "Each service logs `<name> service listening` once it serves, with its
      // public base URL (`url` …) and the address its socket is bound to (`bound` …)"; with a
      // public base URL the bound address was printed nowhere
      const child = await startScript(
        'src/processes/all.ts',
        {
          DATA_DIR: dir,
          FEEDBACK_PORT: '0',
          NOTES_PORT: '0',
          FEEDBACK_BASE_URL: 'https://feedback.example.com',
          NOTES_BASE_URL: 'https://notes.example.com',
          SMTP_URL: 'smtp://127.0.0.1:2525',
          LOG_LEVEL: 'info',
          LOG_FORMAT: 'json',
        },
        /"msg":"started"/,
      );
      try {
        for (const [service, url] of [
          ['feedback', 'https://feedback.example.com'],
          ['notes', 'https://notes.example.com'],
        ]) {
          expect(child.output).to.match(
            new RegExp(
              `"bound":"http://127\\.0\\.0\\.1:\\d+","url":"${url}","msg":"${service} service listening"`,
            ),
          );
        }
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    });
  });

  describe('When HOST is the IPv6 loopback address ::1', () => {
    it('serves both services at http://[::1]:<port>, the default base URLs', async () => {
      // README, Configuration: FEEDBACK_BASE_URL "default http://HOST:FEEDBACK_PORT", and the
      // dev mailbox serves a loopback HOST, [::1] among them; the default was built without the
      // brackets an IPv6 address takes in a URL, and the start stopped on `cannot start:
      // AuthConfigurationError: issuer is not a URL: http://::1:…`
      const child = await startScript(
        'src/processes/all.ts',
        {
          DATA_DIR: dir,
          HOST: '::1',
          FEEDBACK_PORT: '0',
          NOTES_PORT: '0',
          DEV_MODE: 'true',
          LOG_LEVEL: 'info',
          LOG_FORMAT: 'json',
        },
        /"msg":"started"|cannot start/,
      );
      try {
        expect(child.output.match(/cannot start.*/)?.[0], 'the start').to.equal(undefined);
        for (const service of ['feedback', 'notes']) {
          const url = child.output.match(
            new RegExp(`"url":"(http://\\[::1\\]:\\d+)","msg":"${service} service listening"`),
          )?.[1];
          expect(url, `${service} listening line`).to.be.a('string');
          const health = await fetch(`${url}/healthz`);
          expect(health.status, `${service} /healthz`).to.equal(200);
        }
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    });
  });

  describe('When no mail server is configured', () => {
    // issue 10 item 2: "a service listening on a non-loopback address without SMTP refuses to
    // start with a one-line message naming SMTP_URL"
    it('refuses to start on a non-loopback HOST with one line naming SMTP_URL', async () => {
      const { code, stderr } = await start({ DATA_DIR: dir, HOST: '0.0.0.0', SMTP_URL: '' });
      expect(code).to.equal(1);
      const lines = ours(stderr);
      expect(lines).to.have.length(1);
      expect(lines[0]).to.match(/^cannot start: SMTP_URL is not set and HOST=0\.0\.0\.0/);
    });

    // issue 10 item 2: "the dev mailbox exists only in an explicit development mode"
    it('refuses to start on loopback too unless development mode is explicit', async () => {
      const { code, stderr } = await start({ DATA_DIR: dir, DEV_MODE: '', SMTP_URL: '' });
      expect(code).to.equal(1);
      expect(ours(stderr)).to.have.length(1);
      expect(ours(stderr)[0]).to.match(/^cannot start: SMTP_URL is not set: .*DEV_MODE=true/);
    });
  });
});
