/**
 * Issue 11 item 6: "Graceful shutdown on SIGTERM/SIGINT: stop accepting, finish in-flight
 * requests (bounded), flush the read store, exit 0 — test it with a request in flight."
 */
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { expect } from 'chai';
import { apiClient } from '../feedback/support/api.js';
import { startFeedback } from '../feedback/support/harness.js';
import { startProcess } from '../support/processes.js';
import { tempDir } from '../support/stores.js';

describe('Stopping the service (e2e)', function () {
  this.timeout(90_000);
  const dir = tempDir('shutdown-');
  let token: string;

  before(async () => {
    const fb = await startFeedback({ env: { DATA_DIR: dir } });
    const owner = await fb.createMaker('owner@stop.example', 'owner');
    const ws = await fb.createWorkspace(owner, { slug: 'stop-team', name: 'Stop' });
    await fb.createProduct(ws, { key: 'STP', name: 'Stop', visibility: 'public' });
    token = owner.token;
    await fb.stop();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * The service in a child process logging JSON, with one request in flight that never ends: half
   * a body on its own connection. `stderr()` is everything logged so far.
   */
  async function startWithRequestInFlight(headers: string) {
    const { child, url } = await startProcess(dir, { LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    let logged = '';
    child.stderr!.on('data', (chunk) => {
      logged += chunk;
    });
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.on('error', () => {});
    const ended = new Promise((resolve) => socket.once('close', resolve));
    socket.write(
      'POST /v1/public/stop-team/STP/feedback HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        `${headers}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"body":`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { child, socket, ended, exited, stderr: () => logged };
  }

  describe('When SIGTERM arrives while a write is half-way in', () => {
    it('refuses new connections, answers the write in full and exits 0 with it kept', async () => {
      const { child, url } = await startProcess(dir);
      const { port } = new URL(url);
      const body = JSON.stringify({ body: 'Sent while the service stops' });
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk;
      });
      const ended = new Promise((resolve) => socket.once('close', resolve));
      socket.write(
        'POST /v1/public/stop-team/STP/feedback HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          `Authorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n` +
          body.slice(0, 10),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      // the port no longer takes connections
      const refused = await fetch(`${url}/healthz`).then(
        () => false,
        () => true,
      );
      expect(refused, 'a new connection after SIGTERM').to.equal(true);
      socket.write(body.slice(10));
      await ended;
      expect(answer).to.match(/^HTTP\/1\.1 200 /);
      expect(await exited).to.equal(0);

      // the write is there after a restart
      const again = await startProcess(dir);
      try {
        const listed = await apiClient(again.url, token).get(
          '/v1/workspaces/stop-team/products/STP/items',
        );
        expect(listed.body.items.map((i: { body: string }) => i.body)).to.include(
          'Sent while the service stops',
        );
      } finally {
        again.child.kill('SIGKILL');
      }
    });
  });

  describe('When SIGTERM arrives twice and a request outlasts the grace (10 s)', () => {
    // README (Logs, metrics, shutdown): a stop logs `stopping` with its signal and `stopped` with
    // its duration; a second signal logs that the stop is under way; requests cut when the grace
    // runs out are counted in one line and logged with status 444 and `cut: "shutdown"`, not 499
    it('logs the stop, the second signal, the cut request, and exits 0', async () => {
      // the request is still in flight when the grace runs out
      const { child, ended, exited, stderr } = await startWithRequestInFlight(
        `Authorization: Bearer ${token}\r\nX-Correlation-Id: cut-at-stop-1\r\n`,
      );
      child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      child.kill('SIGTERM');
      await ended;
      expect(await exited).to.equal(0);
      const lines = stderr()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const line = (msg: string) => lines.find((l) => l.msg === msg);
      expect(line('stopping')).to.include({ signal: 'SIGTERM', role: 'all' });
      expect(line('stop already under way')).to.include({ signal: 'SIGTERM' });
      expect(line('shutdown grace ran out: requests in flight cut')).to.include({ requests: 1 });
      const access = lines.find(
        (l) => l.msg === 'request' && l.clientCorrelationId === 'cut-at-stop-1',
      );
      expect(access).to.include({ status: 444, cut: 'shutdown' });
      const stopped = line('stopped');
      expect(stopped).to.include({ level: 'info', role: 'all' });
      expect(stopped!.durationMs).to.be.at.least(9_000);
    });
  });

  describe('When a third signal arrives during the stop', () => {
    // README: "a third ends the process at once with exit code 1 (`stop forced`)" — someone who
    // wants out need not wait for the grace of a request that never ends
    it('exits 1 at once, logging that the stop was forced', async () => {
      const { child, socket, exited, stderr } = await startWithRequestInFlight('');
      const began = performance.now();
      for (let i = 0; i < 3; i++) {
        child.kill('SIGTERM');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(await exited).to.equal(1);
      expect(performance.now() - began).to.be.below(5_000);
      expect(stderr()).to.include('stop forced');
      socket.destroy();
    });
  });
});
