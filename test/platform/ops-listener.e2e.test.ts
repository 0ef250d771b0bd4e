/**
 * README, Running on KurrentDB + MongoDB, "Probes of the workers": "With `OPS_PORT` set each
 * listens on it (on `HOST`) for `GET`/`HEAD` `/healthz`, `/readyz` and `/metrics`, with the
 * services' own handlers, answers and `METRICS_TOKEN` rule; anything else answers `404` in the
 * `{error, code}` envelope … unset, these processes listen on no port", and "liveness `/healthz`
 * (200 whenever the process answers, including a projector standing by for the lease …)".
 * The roles run in-process over the embedded stores, their leases in the data file (the entry
 * points refuse to start without MONGODB_URL; the runtime does not need it).
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { Server } from 'node:net';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { createFeedbackService } from '../../src/feedback/service.js';
import { type Logger, silentLogger } from '../../src/platform/logger.js';
import { type Role, type Runtime, startRuntime } from '../../src/platform/runtime.js';
import { explainStartError } from '../../src/processes/start-checks.js';
import { serviceModules } from '../../src/services.js';
import { tempDir } from '../support/stores.js';

const TOKEN = 'a-metrics-token-0123456789';

/** `role` on `dir`; `opsUrl` resolves once the listener logs its address, before start ends */
function start(role: Role, env: Record<string, string>, services = serviceModules()) {
  let listening: (url: string) => void = () => {};
  const opsUrl = new Promise<string>((resolve) => {
    listening = resolve;
  });
  const logged: string[] = [];
  const logger: Logger = {
    ...silentLogger,
    info(message, fields) {
      logged.push(message);
      if (message === 'ops listening') listening(String(fields?.url));
    },
    child: () => logger,
  };
  const config = loadConfig({ FEEDBACK_PORT: '0', NOTES_PORT: '0', DEV_MODE: 'true', ...env });
  return { config, logged, opsUrl, runtime: startRuntime({ config, role, services, logger }) };
}

/** what the tests read of /healthz and /readyz */
interface Report {
  status: string;
  role?: string;
  stores?: { eventStore: string };
  projections?: unknown;
  projectorLease?: { state: string; holder?: string };
  search?: { indexes?: Record<string, unknown> };
  webhooks?: unknown;
}

/** the net servers of this process that are listening now */
const listeningServers = (): Server[] =>
  (process as unknown as { _getActiveHandles(): unknown[] })
    ._getActiveHandles()
    .filter((handle): handle is Server => handle instanceof Server && handle.listening);

const get = (url: string, init?: RequestInit) => fetch(url, init);
const json = async (url: string) => {
  const res = await get(url);
  return { status: res.status, body: (await res.json()) as Report };
};

describe('The operations listener of the projector and webhooks roles (e2e)', function () {
  this.timeout(90_000);
  const dirs: string[] = [];
  const dir = () => {
    dirs.push(tempDir('ops-'));
    return dirs.at(-1)!;
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  describe('When a projector runs with OPS_PORT=0', () => {
    let runtime: Runtime;
    let url: string;
    before(async () => {
      const started = start('projector', { DATA_DIR: dir(), OPS_PORT: '0' });
      runtime = await started.runtime;
      url = runtime.urls.get('ops')!;
      expect(await started.opsUrl).to.equal(url);
    });
    after(() => runtime.stop());

    it('listens on HOST at the address it logged; /healthz answers GET and HEAD', async () => {
      expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await json(`${url}/healthz`)).to.deep.equal({ status: 200, body: { status: 'ok' } });
      const head = await get(`${url}/healthz`, { method: 'HEAD' });
      expect(head.status).to.equal(200);
      expect(head.headers.get('x-content-type-options')).to.equal('nosniff');
    });

    it('reports on /readyz its role, stores, projections, the lease and the search indexes', async () => {
      const deadline = Date.now() + 60_000;
      let ready = await json(`${url}/readyz`);
      // the indexes show once the embedder is ready
      while (!ready.body.search?.indexes && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        ready = await json(`${url}/readyz`);
      }
      expect(ready.status, JSON.stringify(ready.body)).to.equal(200);
      const { role, stores, projections, projectorLease, search } = ready.body;
      expect(role).to.equal('projector');
      expect(stores?.eventStore).to.match(/^embedded /);
      expect(projections).to.deep.equal(await runtime.engine!.status());
      expect(projectorLease?.state).to.equal('held');
      expect(Object.keys(search?.indexes ?? {}).sort()).to.deep.equal(['items', 'notes', 'people']);
    });

    it('serves projector lag and checkpoints and the embedder queue on /metrics', async () => {
      const text = await (await get(`${url}/metrics`)).text();
      expect(text).to.include('projector_lag_events{projector="items"} 0\n');
      expect(text).to.match(/projector_checkpoint_position\{projector="items"\} \d+\n/);
      for (const index of ['items', 'people', 'notes']) {
        expect(text).to.match(new RegExp(`search_pending_texts\\{index="${index}"\\} \\d+\\n`));
        expect(text).to.match(new RegExp(`search_indexed_texts\\{index="${index}"\\} \\d+\\n`));
      }
    });

    it('answers anything else 404 in the {error, code} envelope', async () => {
      for (const [method, path] of [
        ['GET', '/v1/openapi.json'],
        ['GET', '/docs'],
        ['POST', '/healthz'],
      ] as const) {
        const res = await get(`${url}${path}`, { method });
        expect(res.status, `${method} ${path}`).to.equal(404);
        expect(await res.json()).to.deep.equal({
          error: `no route for ${method} ${path}`,
          code: 'not-found',
        });
      }
    });
  });

  describe('When a webhook worker runs with OPS_PORT=0', () => {
    let runtime: Runtime;
    let url: string;
    before(async () => {
      const env = { DATA_DIR: dir(), OPS_PORT: '0' };
      runtime = await start('webhooks', env, [createFeedbackService()]).runtime;
      url = runtime.urls.get('ops')!;
    });
    after(() => runtime.stop());

    it('answers /healthz, and /readyz with the worker delivering (it holds the lease)', async () => {
      expect((await json(`${url}/healthz`)).status).to.equal(200);
      const ready = await json(`${url}/readyz`);
      expect(ready.status).to.equal(200);
      expect(ready.body.role).to.equal('webhooks');
      expect(ready.body.webhooks).to.deep.equal({ delivering: true, checkpoint: '0' });
    });

    it('serves the webhook worker and delivery metrics on /metrics', async () => {
      const text = await (await get(`${url}/metrics`)).text();
      expect(text).to.include('webhook_worker_delivering 1\n');
      expect(text).to.include('webhook_worker_checkpoint_position 0\n');
      expect(text).to.include('# TYPE webhook_delivery_attempt_duration_seconds histogram\n');
    });
  });

  describe('When METRICS_TOKEN is set behind a proxy (TRUST_PROXY: no client counts as local)', () => {
    const env = { OPS_PORT: '0', METRICS_TOKEN: TOKEN, TRUST_PROXY: 'true' };
    let worker: Runtime;
    let api: Runtime;
    before(async () => {
      worker = await start('webhooks', { ...env, DATA_DIR: dir() }, [createFeedbackService()])
        .runtime;
      api = await start('api', { ...env, DATA_DIR: dir() }, [createFeedbackService()]).runtime;
    });
    after(async () => {
      await worker.stop();
      await api.stop();
    });

    it('answers /metrics only with the token, exactly as the service does', async () => {
      const targets = [worker.urls.get('ops')!, api.urls.get('feedback')!];
      for (const [authorization, status] of [
        [undefined, 404],
        [`Bearer ${TOKEN}x`, 404],
        [`Bearer ${TOKEN}`, 200],
      ] as const) {
        const answers = [];
        for (const base of targets) {
          const res = await get(
            `${base}/metrics`,
            authorization ? { headers: { authorization } } : {},
          );
          const text = await res.text();
          answers.push({ status: res.status, body: status === 404 ? text : text.slice(0, 6) });
        }
        expect(answers[0], authorization).to.deep.equal({
          status,
          body:
            status === 404 ? '{"error":"no route for GET /metrics","code":"not-found"}' : '# HELP',
        });
        expect(answers[1], authorization).to.deep.equal(answers[0]);
      }
    });

    it('answers /readyz with the status alone, and the report only with the token', async () => {
      // the report's checkpoints are the service's position in the event log, moved by every
      // tenant's writes: read by anyone, it told when other workspaces wrote. README: the report
      // follows "the `METRICS_TOKEN` rule"; an orchestrator's probe reads the status code
      for (const base of [worker.urls.get('ops')!, api.urls.get('feedback')!]) {
        expect(await json(`${base}/readyz`), base).to.deep.equal({
          status: 200,
          body: { status: 'ok' },
        });
        const wrong = await get(`${base}/readyz`, {
          headers: { authorization: `Bearer ${TOKEN}x` },
        });
        expect(await wrong.json(), base).to.deep.equal({ status: 'ok' });
        const res = await get(`${base}/readyz`, { headers: { authorization: `Bearer ${TOKEN}` } });
        const report = (await res.json()) as Report;
        expect(res.status, base).to.equal(200);
        expect(report.role, base).to.be.a('string');
        expect(report.projections, base).to.be.an('object');
      }
    });
  });

  describe('When OPS_PORT is unset, or set for a role with services', () => {
    it('the projector listens on no port, and an API process only on its services’ ports', async () => {
      const before = listeningServers();
      const projector = start('projector', { DATA_DIR: dir() }, []);
      const running = await projector.runtime;
      // what the process really listens on while it runs, not only what it reports
      const opened = listeningServers()
        .filter((server) => !before.includes(server))
        .map((server) => server.address());
      await running.stop();
      expect(opened).to.deep.equal([]);
      expect([...running.urls.keys()]).to.deep.equal([]);
      expect(projector.logged).to.not.include('ops listening');
      const api = start('api', { DATA_DIR: dir(), OPS_PORT: '0' }, [createFeedbackService()]);
      await (await api.runtime).stop();
      expect([...(await api.runtime).urls.keys()]).to.deep.equal(['feedback']);
      expect(api.logged).to.not.include('ops listening');
    });
  });

  describe('When a second projector stands by for the lease', () => {
    it('answers /healthz and /readyz while it waits, and takes over when the first stops', async () => {
      const env = { DATA_DIR: dir(), OPS_PORT: '0', PROJECTOR_LEASE_MS: '1000' };
      const first = await start('projector', env, []).runtime;
      const second = start('projector', env, []);
      let started = false;
      void second.runtime.then(() => {
        started = true;
      });
      const url = await second.opsUrl;
      expect(await json(`${url}/healthz`)).to.deep.equal({ status: 200, body: { status: 'ok' } });
      const standing = await json(`${url}/readyz`);
      // ready: standing by is its job; an unready standby would stall a rolling update
      expect(standing.status).to.equal(200);
      // who holds it: test/platform/lease-holder-readyz.e2e.test.ts
      expect(standing.body.projectorLease).to.have.property('state', 'standing by');
      expect((await get(`${url}/metrics`)).status).to.equal(200);
      expect(started, 'the standby started before the lease was free').to.equal(false);

      await first.stop();
      const taken = await second.runtime;
      const ready = await json(`${taken.urls.get('ops')}/readyz`);
      expect(ready.body.projectorLease?.state).to.equal('held');
      await taken.stop();
    });
  });

  describe('When OPS_PORT is held by another process', () => {
    it('does not start, and the reason names OPS_PORT', async () => {
      const other = createServer();
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
      const port = (other.address() as { port: number }).port;
      try {
        const started = start('projector', { DATA_DIR: dir(), OPS_PORT: String(port) }, []);
        const error = await started.runtime.then(
          () => expect.fail('started'),
          (e: unknown) => e,
        );
        expect(explainStartError(error, started.config, 'projector')).to.equal(
          `OPS_PORT=${port}: another process listens on that port`,
        );
      } finally {
        other.close();
      }
    });
  });

  describe('When a webhook worker starts without SMTP_URL or DEV_MODE', () => {
    it('starts: it sends webhooks, never sign-in codes, so it needs no mail server', async () => {
      // src/config/mail-mode.ts refuses a service without a way to mail sign-in codes; the
      // webhook worker, like the projector, serves no sign-in
      const started = start('webhooks', { DATA_DIR: dir(), DEV_MODE: 'false' }, []);
      const runtime = await started.runtime;
      await runtime.stop();
    });
  });
});
