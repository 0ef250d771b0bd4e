/**
 * Issue 2: "A corrupted or unreadable data file stops the process at start with a clear error;
 * it never silently starts empty." and "Config: ... fail fast with a clear message."
 * The real entry point (`npm start` runs src/processes/all.ts) as a child process.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { tempDir } from '../support/stores.js';

function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/processes/all.ts'], {
      env: {
        ...process.env,
        FEEDBACK_PORT: '0',
        NOTES_PORT: '0',
        LOG_LEVEL: 'error',
        DEV_MODE: 'true',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** stderr lines of ours: oidc-provider warns about the Node.js version on its own */
const ours = (stderr: string) =>
  stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('oidc-provider WARNING'));

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
      expect(stderr).to.match(/cannot start: invalid configuration:\n\s+FEEDBACK_PORT:/);
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
