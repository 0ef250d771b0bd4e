/**
 * Issue 2: "A corrupted or unreadable data file stops the process at start with a clear error;
 * it never silently starts empty." and "Config: ... fail fast with a clear message."
 * The real entry point (`npm start` runs src/main.ts) as a child process.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { tempDir } from '../support/stores.js';

function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, FEEDBACK_PORT: '0', NOTES_PORT: '0', LOG_LEVEL: 'error', ...env },
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
});
