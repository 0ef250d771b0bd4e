/**
 * Issue 11 item 6: "pino (JSON lines …) with an access log per request carrying the correlation
 * id, operation id, status, duration and caller label; the correlation id also goes into the
 * events' metadata so a request can be followed to its events and projections. prom-client
 * /metrics on each service: request duration histograms per operation and status, event-store
 * append latency and group size, projector lag and checkpoint per projector, read-your-writes
 * wait time."
 */
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import * as actions from '../../src/feedback/actions/index.js';
import { createFeedbackService } from '../../src/feedback/service.js';
import { type Runtime, startRuntime } from '../../src/platform/runtime.js';
import { logLines } from '../support/log-lines.js';
import { tempDir } from '../support/stores.js';

describe('Logs and metrics of a running service (e2e)', () => {
  const dir = tempDir('telemetry-');
  const log = logLines();
  const { lines } = log;
  let runtime: Runtime;
  let url: string;
  let token: string;

  before(async () => {
    runtime = await startRuntime({
      config: loadConfig({
        DATA_DIR: dir,
        FEEDBACK_PORT: '0',
        LOG_LEVEL: 'info',
        DEV_MODE: 'true',
      }),
      role: 'all',
      services: [createFeedbackService()],
      logger: log.logger,
    });
    url = runtime.urls.get('feedback')!;
    const deps = {
      commandHandler: runtime.context.commandHandler,
      readStore: runtime.stores.readStore,
    };
    const context = { actor: null, now: Date.now() };
    const { userId } = await actions.createUser(deps, context, {
      email: 'ops@example.com',
      displayName: 'Ops',
    });
    const { workspaceId } = await actions.createWorkspace(deps, context, {
      slug: 'ops-team',
      name: 'Ops',
      ownerId: userId,
    });
    await actions.createProduct(deps, context, {
      workspaceId,
      key: 'OPS',
      name: 'Ops',
      visibility: 'public',
    });
    await runtime.context.waitFor(await runtime.stores.eventStore.headPosition());
    ({ token } = await actions.createToken(deps, context, { ownerId: userId, name: 'cli' }));
    await runtime.context.waitFor(await runtime.stores.eventStore.headPosition());
  });
  after(async () => {
    await runtime.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('When a client writes with its own correlation id', () => {
    it('answers and logs its own id, keeping the client’s beside it in the line and the events', async () => {
      // README: the correlation id is the server's own, minted per request; a well-formed one
      // the client sends is kept as `clientCorrelationId`, never taken as the correlation id
      const res = await fetch(`${url}/v1/public/ops-team/OPS/feedback`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-correlation-id': 'trace-me-1234',
        },
        body: JSON.stringify({ body: 'Trace this write' }),
      });
      expect(res.status).to.equal(200);
      const id = res.headers.get('x-correlation-id');
      expect(id).to.match(/^[0-9a-f-]{36}$/);
      await new Promise((resolve) => setImmediate(resolve));
      const line = lines.find((l) => l.msg === 'request' && l.correlationId === id);
      expect(line).to.include({
        clientCorrelationId: 'trace-me-1234',
        level: 'info',
        service: 'feedback',
        operation: 'submit_feedback',
        method: 'POST',
        path: '/v1/public/ops-team/OPS/feedback',
        status: 200,
      });
      expect(line!.durationMs).to.be.a('number');
      expect(line!.caller).to.match(/ pat:cli$/);
      const events = await runtime.stores.eventStore.readAll();
      const traced = events.filter((e) => e.metadata.correlationId === id);
      expect(traced.map((e) => e.type)).to.include('ItemCaptured');
      for (const e of traced) expect(e.metadata.clientCorrelationId).to.equal('trace-me-1234');
    });
  });

  describe('When a client goes away before its answer', () => {
    it('still logs and counts the request, as status 499', async () => {
      // an audit: 30 writes whose sockets closed early were all in the log, 21 in the access log
      const { request } = await import('node:http');
      const target = new URL(`${url}/v1/public/ops-team/OPS/feedback`);
      const body = JSON.stringify({ body: 'A write whose client left' });
      await new Promise<void>((resolve) => {
        const req = request(target, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': String(body.length),
            'x-correlation-id': 'gone-away-1',
          },
        });
        req.on('error', () => resolve());
        req.on('close', () => resolve());
        // half the body, then the client is gone: no answer can reach it
        req.write(body.slice(0, 10), () => setTimeout(() => req.destroy(), 50));
      });
      let line: Record<string, unknown> | undefined;
      for (let i = 0; i < 100 && !line; i++) {
        line = lines.find((l) => l.msg === 'request' && l.clientCorrelationId === 'gone-away-1');
        if (!line) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(line, 'no access line').to.include({ operation: 'submit_feedback', status: 499 });
      const text = await (await fetch(`${url}/metrics`)).text();
      expect(text).to.match(/operation="submit_feedback",method="POST",status="499"/);
    });
  });

  describe('When node:http refuses a request before any app sees it', () => {
    /** sends `raw` over a plain socket; resolves with what came back before the server closed */
    const exchange = (raw: string) =>
      new Promise<string>((resolve, reject) => {
        const { port } = new URL(url);
        let answer = '';
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(raw));
        socket.on('data', (chunk) => {
          answer += chunk;
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const refusedLine = (code: string) =>
      log.find((l) => l.msg === 'request' && l.operation === '(unparsed)' && l.code === code);

    it('logs and counts a broken request line (400) and oversized headers (431), under (unparsed)', async () => {
      // README: "one access line per request"; the audit found these refusals in neither the
      // access log nor the request metric
      const broken = await exchange('GARBAGE\r\n\r\n');
      expect(broken).to.match(/^HTTP\/1\.1 400 /);
      expect(await refusedLine('HPE_INVALID_METHOD'), 'no access line for the 400').to.include({
        level: 'info',
        service: 'feedback',
        status: 400,
      });
      const big = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
      expect(await exchange(big)).to.match(/^HTTP\/1\.1 431 /);
      expect(await refusedLine('HPE_HEADER_OVERFLOW'), 'no access line for the 431').to.include({
        service: 'feedback',
        status: 431,
      });
      const text = await (await fetch(`${url}/metrics`)).text();
      expect(text).to.match(
        /http_request_duration_seconds_count\{service="feedback",operation="\(unparsed\)",method="-",status="400"\} [1-9]/,
      );
      expect(text).to.match(/operation="\(unparsed\)",method="-",status="431"\} [1-9]/);
    });
  });

  describe('When Prometheus scrapes /metrics from the machine', () => {
    it('answers the request, append, read-your-writes and projector metrics', async () => {
      await fetch(`${url}/v1/workspaces/ops-team/products`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const res = await fetch(`${url}/metrics`);
      expect(res.status).to.equal(200);
      const text = await res.text();
      expect(text).to.match(
        /http_request_duration_seconds_bucket\{[^}]*service="feedback",operation="list_products",method="GET",status="200"/,
      );
      expect(text).to.match(/eventstore_append_duration_seconds_count\{adapter="embedded"\} [1-9]/);
      expect(text).to.match(/eventstore_append_events_bucket/);
      expect(text).to.match(/read_your_writes_wait_seconds_count [1-9]/);
      expect(text).to.match(/projector_lag_events\{projector="items"\} 0/);
      expect(text).to.match(/projector_checkpoint_position\{projector="items"\} [1-9]/);
      // the MongoDB read store's client replacements (src/readstore/mongodb/client.ts): none here
      expect(text).to.match(/^readstore_client_replacements_total 0$/m);
    });
  });
});
