/**
 * `npm start` (and `npm run dev`) as an operator or a container runtime runs it: SIGTERM goes to
 * npm, the process it was given. README: "SIGTERM or SIGINT: stop accepting, finish in-flight
 * requests, flush, exit 0". npm runs a script through `sh -c`, and a shell that does not `exec`
 * dies without passing the signal on, leaving the server running and holding the ports and
 * the data file — so the scripts `exec` the server.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { tempDir } from '../support/stores.js';

describe('Stopping `npm run dev` with SIGTERM (e2e)', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = tempDir('npm-start-');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('stops the server it started: its port refuses connections afterwards', async () => {
    const npm = spawn('npm', ['run', '--silent', 'dev'], {
      env: {
        ...process.env,
        DATA_DIR: dir,
        FEEDBACK_PORT: '0',
        NOTES_PORT: '0',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killer = setTimeout(() => npm.kill('SIGKILL'), 45_000);
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk;
        const match = output.match(/feedback: (http:\/\/\S+)/);
        if (match) resolve(match[1]!);
      };
      npm.stdout.on('data', read);
      npm.stderr.on('data', read);
      npm.once('exit', () => reject(new Error(`npm exited before listening:\n${output}`)));
    });
    expect((await fetch(`${url}/healthz`)).status).to.equal(200);

    const exited = new Promise((resolve) => npm.once('exit', resolve));
    npm.kill('SIGTERM');
    await exited;
    clearTimeout(killer);
    // the server stops shortly after npm: poll its port, bounded
    let refused = false;
    for (let i = 0; i < 100 && !refused; i++) {
      refused = await fetch(`${url}/healthz`).then(
        () => false,
        () => true,
      );
      if (!refused) await new Promise((r) => setTimeout(r, 100));
    }
    expect(refused, 'the server still answers after npm was stopped').to.equal(true);
  });
});
