/**
 * Boots a process in one of four roles over the configured stores:
 *  - `all` (embedded default): every service's HTTP app, the projections and the workers;
 *  - `api`: the HTTP apps only; read-your-writes waits on the projector checkpoints;
 *  - `projector`: the projections and background workers only, under a lease in the read
 *    store (one projector applies at a time; a second stands by and takes over);
 *    `all` holds the same lease while it is free, so `rebuild` refuses beside either;
 *  - `webhooks`: the outbound webhook worker only (it waits on the projector checkpoints).
 * The last two serve only /healthz, /readyz and /metrics, on OPS_PORT when set (ops-listener.ts).
 * How each role's read-your-writes waits are served: projection-waits.ts; what the services are
 * handed: service-context.ts; the stop's steps: stop-sequence.ts, which also close what a start
 * that fails part way had opened.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mailModeOf } from '../config/mail-mode.js';
import type { Config } from '../config/schema.js';
import type { ProjectionEngine } from '../read/projection-engine.js';
import { lazyEmbedder } from '../search/create-embedder.js';
import { checkpointStatus, createHealthReporter } from './health-report.js';
import { connectionBounds, listenWhileBooting, refuseWhileBooting } from './http-server.js';
import { httpUrl } from './http-url.js';
import type { Logger } from './logger.js';
import { createMetrics } from './metrics.js';
import { startOpsListener } from './ops-listener.js';
import {
  type Projecting,
  reportProjectorLease,
  reportSharedLease,
  startProjectionWaits,
} from './projection-waits.js';
import type { Role } from './role.js';
import type { ServiceContext, ServiceModule } from './service.js';
import { buildServiceContext } from './service-context.js';
import { stopSequence } from './stop-sequence.js';
import { runStopSteps, type StopOutcome, type StopStep } from './stop-steps.js';
import { openStores, type Stores } from './stores.js';
import { clientErrorTelemetry, telemetryOf } from './telemetry.js';

export type { Role } from './role.js';

export interface Runtime {
  stores: Stores;
  engine?: ProjectionEngine;
  context: ServiceContext;
  /** base URL each service listens on, by service name; `ops`: the OPS_PORT listener's */
  urls: Map<string, string>;
  /** every step of the stop runs; a failed one is logged, never thrown (stop-steps.ts) */
  stop(): Promise<StopOutcome>;
}

export async function startRuntime(options: {
  config: Config;
  role: Role;
  services: readonly ServiceModule[];
  logger: Logger;
  /** a `projector` lost its lease to another (it was paused past it): the process should end */
  onLeaseLost?: () => void;
  /**
   * gives the start up: a standby projector waits in it for the lease; aborted, the start closes
   * what it opened and rejects with the signal's reason
   */
  signal?: AbortSignal;
}): Promise<Runtime> {
  const { config, role, services, logger } = options;
  // before anything opens: an HTTP service without a way to send sign-in codes does not start
  // (the projector and webhook workers serve no sign-in)
  const signsIn = role === 'all' || role === 'api';
  if (signsIn && mailModeOf(config) === 'dev-mailbox') {
    logger.warn(
      'development mode: sign-in codes go to the dev mailbox (loopback only), not e-mail',
    );
  }
  const metrics = createMetrics();
  const stores = await openStores(config, {
    // what a second process would keep apart on the embedded read store: sign-ins and limits
    server: signsIn,
    logger,
    onReadStoreClientReplaced: (reason) => {
      logger.warn(`MongoDB client replaced: ${reason}; its monitor had stopped`);
      metrics.readStoreClientReplacements.inc();
    },
  });
  const servers: Server[] = [];
  const stoppers: StopStep[] = [];
  // ends the waits without a timeout (context.caughtUpTo) before anything they wait on stops
  const stopping = new AbortController();
  const embedder = lazyEmbedder({ modelDir: config.MODEL_DIR, logger });
  const projecting: Projecting = {};
  const stopSteps = () => stopSequence({ servers, stoppers, projecting, embedder, stores, logger });
  const stop = () => {
    stopping.abort();
    return runStopSteps(stopSteps(), logger);
  };
  const urls = new Map<string, string>();
  try {
    const booted = services.map((service) => ({
      service,
      instance: service.boot({ config, logger, embedder }),
    }));
    const projectors = booted.flatMap(({ instance }) => instance.projectors);

    const reporter = createHealthReporter({
      role,
      stores,
      metrics,
      stallMs: config.PROJECTION_WAIT_MS,
      // until the engine runs (a standby projector), the checkpoints the applying one stored
      projections: () =>
        projecting.engine ? projecting.engine.status() : checkpointStatus(stores, projectors),
    });
    const { health } = reporter;
    if (role === 'projector') reportProjectorLease(reporter, projecting);
    if (role === 'all') reportSharedLease(reporter, projecting);
    // before a standby projector waits for its lease: liveness must answer during the wait
    const ops = await startOpsListener(role, { config, logger, metrics, health });
    if (ops) {
      servers.push(ops.server);
      urls.set('ops', ops.url);
    }
    const waits = await startProjectionWaits(
      role,
      {
        config,
        stores,
        projectors,
        logger,
        onLeaseLost: options.onLeaseLost,
        onLeaseError: () => metrics.projectorLeaseErrors.inc(),
        signal: options.signal,
      },
      projecting,
    );
    options.signal?.throwIfAborted();
    const { engine } = projecting;
    const context = buildServiceContext({
      config,
      stores,
      engine,
      projectors,
      waits,
      stopping: stopping.signal,
      reporter,
      metrics,
      logger,
    });
    if (role === 'all' || role === 'api') {
      // every port first: one another process holds (NOTES_PORT) stops the start before any
      // service is built or says it listens
      const listening = [];
      for (const { service, instance } of booted) {
        // With port 0 the base URL (the OAuth issuer) is known only once the port is open; a
        // request arriving before the app is built waits for it.
        const { server, serve } = await listenWhileBooting(
          service.port(config),
          config.HOST,
          connectionBounds(config),
        );
        servers.push(server);
        listening.push({ service, instance, server, serve });
      }
      for (const { service, instance, server, serve } of listening) {
        const { address, port } = server.address() as AddressInfo;
        const bound = httpUrl(address, port);
        const baseUrl = service.baseUrl?.(config) ?? httpUrl(config.HOST, port);
        const served = await instance.createApp(context, { port, baseUrl });
        const telemetry = telemetryOf(service.name, context);
        serve({ ...served, onClientError: clientErrorTelemetry(telemetry, served.onClientError) });
        urls.set(service.name, baseUrl);
        // the public URL, and where this process listens: behind a proxy they differ
        logger.info(`${service.name} service listening`, { bound, url: baseUrl });
      }
    }
    if (role === 'all' || role === 'projector') {
      for (const { instance } of booted) {
        const workers = await instance.startWorkers?.(context);
        if (workers) stoppers.push({ name: 'workers', run: () => workers.stop(), flushes: true });
      }
    }
    if (role === 'all' || role === 'webhooks') {
      for (const { instance } of booted) {
        const webhooks = await instance.startWebhooks?.(context);
        if (webhooks) {
          stoppers.push({ name: 'webhook worker', run: () => webhooks.stop(), flushes: true });
        }
      }
    }
    // one line an operator (or a supervisor's readiness check) can wait for, in every role
    logger.info('started', { role });
    return { stores, engine, context, urls, stop };
  } catch (error) {
    // whichever step threw, what the steps before it opened closes, the stop's way and order
    // (stop-sequence.ts): otherwise the ports, the lease, the embedder's thread and the data
    // directory's lock outlive the start, and a retry in this process finds them held. A step
    // that fails there is its own line; the start's error is the one thrown, which the entry
    // points print (src/processes/boot.ts)
    // requests already held on a port that never served would keep the stop for its grace
    for (const server of servers) refuseWhileBooting(server);
    await stop();
    throw error;
  }
}
