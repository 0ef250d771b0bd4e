/**
 * `npm start` (and `npm run dev`) as an operator or a container runtime runs it: signals go to
 * npm, the process it was given. README: "SIGTERM or SIGINT: stop accepting, finish in-flight
 * requests, flush, exit 0". npm runs a script through `sh -c`, and a shell that does not `exec`
 * dies without passing the signal on, leaving the server running and holding the ports and
 * the data file — so the scripts `exec` the server. npm killed with SIGKILL relays nothing: the
 * server then notices that npm is gone and stops by itself (src/processes/parent-watch.ts), so a
 * supervisor's restart finds the ports free.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { tempDir } from '../support/stores.js';

describe('Stopping `npm run dev` (e2e)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = tempDir('npm-start-');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('SIGTERM to npm stops the server it started: its port refuses connections afterwards', async () => {
    const { npm, url } = await startNpmDev(dir);
    await stopNpm(npm, 'SIGTERM');
    expect(await refusesWithin(url, 10_000), 'the server still answers after SIGTERM').to.equal(
      true,
    );
  });

  it('SIGKILL to npm also ends the server: "the npm process that started this server is gone"', async () => {
    const { npm, url, output } = await startNpmDev(dir);
    await stopNpm(npm, 'SIGKILL');
    // the orphan sees npm gone within its 500 ms watch, then stops as on SIGTERM
    expect(await refusesWithin(url, 10_000), 'the orphaned server still answers').to.equal(true);
    expect(output()).to.include('the npm process that started this server is gone');
  });
});

async function startNpmDev(dir: string) {
  const npm = spawn('npm', ['run', '--silent', 'dev'], {
    env: {
      ...process.env,
      DATA_DIR: dir,
      FEEDBACK_PORT: '0',
      NOTES_PORT: '0',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killer = setTimeout(() => npm.kill('SIGKILL'), 45_000);
  npm.once('exit', () => clearTimeout(killer));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const match = output.match(/feedback: (http:\/\/\S+)/);
      if (match) resolve(match[1]!);
    };
    // the pipes outlive npm when it is killed: the server inherited them
    npm.stdout.on('data', read);
    npm.stderr.on('data', read);
    npm.once('exit', () => reject(new Error(`npm exited before listening:\n${output}`)));
  });
  expect((await fetch(`${url}/healthz`)).status).to.equal(200);
  return { npm, url, output: () => output };
}

async function stopNpm(npm: ChildProcess, signal: NodeJS.Signals) {
  const exited = new Promise((resolve) => npm.once('exit', resolve));
  npm.kill(signal);
  await exited;
}

/** whether the server's port refuses connections within `ms` (polled every 100 ms) */
async function refusesWithin(url: string, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    const refused = await fetch(`${url}/healthz`).then(
      () => false,
      () => true,
    );
    if (refused) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
