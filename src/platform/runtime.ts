/**
 * Boots a process in one of four roles over the configured stores:
 *  - `all` (embedded default): every service's HTTP app, the projections and the workers;
 *  - `api`: the HTTP apps only; read-your-writes waits on the projector checkpoints;
 *  - `projector`: the projections and background workers only, under a lease in the read
 *    store (one projector applies at a time; a second stands by and takes over);
 *    `all` holds the same lease while it is free, so `rebuild` refuses beside either;
 *  - `webhooks`: the outbound webhook worker only (it waits on the projector checkpoints).
 * The last two serve only /healthz, /readyz and /metrics, on OPS_PORT when set (ops-listener.ts).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkpointId } from '../../projections/shared/projector.js';
import { createCommandHandler } from '../write/command-handler.js';
import { mailModeOf } from '../config/mail-mode.js';
import type { Config } from '../config/schema.js';
import { createCheckpointWaiter } from '../read/checkpoint-waiter.js';
import { createProjectionEngine, type ProjectionEngine } from '../read/projection-engine.js';
import { type Logger, silentLogger } from './logger.js';
import { lazyEmbedder } from '../search/create-embedder.js';
import { closeGracefully, connectionBounds, listenWhileBooting } from './http-server.js';
import {
  type HeldLease,
  holdProjectorLease,
  PROJECTOR_LEASE,
  PROJECTOR_LEASE_ID,
  shareProjectorLease,
} from '../read/projector-lease.js';
import { catchUpFor, readVersionFor } from './catch-up.js';
import { createMetrics } from './metrics.js';
import { quietKeysIn } from '../write/quiet-keys.js';
import { timedWait } from './read-your-writes.js';
import { loadSecret } from './secret.js';
import type { ServiceContext, ServiceModule } from './service.js';
import { checkpointStatus, createHealthReporter, storedCheckpoints } from './health-report.js';
import { startOpsListener } from './ops-listener.js';
import { runStopSteps, type StopOutcome, type StopStep } from './stop-steps.js';
import { clientErrorTelemetry, telemetryOf } from './telemetry.js';
import { openStores, type Stores } from './stores.js';

export type Role = 'all' | 'api' | 'projector' | 'webhooks';

/** how long a stopping server lets the requests in flight finish */
const SHUTDOWN_GRACE_MS = 10_000;

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
  /**
   * stop accepting on every port at once, let requests in flight finish, then the workers, the
   * projections, the lease, the embedder and the stores: each step whatever the others did
   */
  // ends the waits without a timeout (context.caughtUpTo) before anything they wait on stops
  const stopping = new AbortController();
  const stopSteps = (): StopStep[] => [
    {
      name: 'HTTP servers',
      run: async () => {
        const cut = await Promise.all(servers.map((s) => closeGracefully(s, SHUTDOWN_GRACE_MS)));
        const requests = cut.reduce((sum, n) => sum + n, 0);
        if (requests > 0) {
          logger.warn('shutdown grace ran out: requests in flight cut', {
            requests,
            graceMs: SHUTDOWN_GRACE_MS,
          });
        }
      },
    },
    ...stoppers.reverse(),
    // its last flush writes the read store's every unsaved change, not only the projections'
    { name: 'projection engine', run: async () => engine?.stop(), flushes: true },
    { name: 'projector lease', run: async () => lease?.release() },
    { name: 'embedder', run: () => embedder.close() },
    { name: 'stores', run: () => stores.close() },
  ];
  const embedder = lazyEmbedder({ modelDir: config.MODEL_DIR, logger });
  const booted = services.map((service) => ({
    service,
    instance: service.boot({ config, logger, embedder }),
  }));
  const projectors = booted.flatMap(({ instance }) => instance.projectors);

  let engine: ProjectionEngine | undefined;
  let lease: HeldLease | undefined;
  let waitFor: (position: bigint) => Promise<void>;
  let caughtUpTo: (position: bigint, signal: AbortSignal) => Promise<boolean>;
  const reporter = createHealthReporter({
    role,
    stores,
    metrics,
    stallMs: config.PROJECTION_WAIT_MS,
    // until the engine runs (a standby projector), the checkpoints the applying one stored
    projections: () => (engine ? engine.status() : checkpointStatus(stores, projectors)),
  });
  const { health, readiness } = reporter;
  if (role === 'projector') {
    // a standby is ready (it does its job: taking over); an unready one would stall rollouts
    reporter.report('projectorLease', () =>
      lease ? { state: 'held', holder: lease.holder } : { state: 'standing by' },
    );
  }
  const urls = new Map<string, string>();
  // before a standby projector waits for its lease: liveness must answer during the wait
  const ops = await startOpsListener(role, { config, logger, metrics, health }).catch(
    async (error) => {
      await embedder.close();
      await stores.close();
      throw error;
    },
  );
  if (ops) {
    servers.push(ops.server);
    urls.set('ops', ops.url);
  }
  if (role === 'api' || role === 'webhooks') {
    const waiter = createCheckpointWaiter(stores.readStore, projectors.map(checkpointId), {
      timeoutMs: config.PROJECTION_WAIT_MS,
    });
    waitFor = (position) => waiter.waitFor(position);
    caughtUpTo = (position, signal) => waiter.caughtUpTo(position, signal);
  } else {
    const projectorLease = stores.lease(PROJECTOR_LEASE, PROJECTOR_LEASE_ID);
    if (role === 'projector') {
      // one projector at a time over the shared read models; a second one stands by here
      lease = await holdProjectorLease({
        lease: projectorLease,
        leaseMs: config.PROJECTOR_LEASE_MS,
        logger,
        onLost: () => {
          void engine?.stop();
          options.onLeaseLost?.();
        },
      });
    } else {
      // not to keep other servers out: so that `rebuild` sees this one projecting and refuses
      lease = await shareProjectorLease({
        lease: projectorLease,
        leaseMs: config.PROJECTOR_LEASE_MS,
        logger,
      });
    }
    engine = createProjectionEngine({
      eventStore: stores.eventStore,
      readStore: stores.readStore,
      projectors,
      waitTimeoutMs: config.PROJECTION_WAIT_MS,
      logger,
    });
    await engine.start();
    const running = engine;
    waitFor = (position) => running.waitFor(position);
    caughtUpTo = (position, signal) => running.caughtUpTo(position, signal);
  }

  const adapter = { adapter: stores.eventStore.adapter };
  // writes and the reads that catch up first wait alike: timed, and named when they run out
  const timed = timedWait(waitFor, {
    metrics,
    logger,
    checkpoints: () => (engine ? engine.checkpoints() : storedCheckpoints(stores, projectors)),
  });
  const projecting = engine;
  const catchUp = catchUpFor(
    stores,
    projecting && { position: () => projecting.position(), waitFor: timed },
  );
  const context: ServiceContext = {
    config,
    stores,
    commandHandler: createCommandHandler(stores.eventStore, {
      onAppend(seconds, events) {
        readiness.appended();
        metrics.appendDuration.observe(adapter, seconds);
        metrics.appendEvents.observe(adapter, events);
      },
      onAppendFailed: (error) => readiness.appendFailed(error),
      quietKeys: quietKeysIn(stores.readStore),
    }),
    waitFor: timed,
    caughtUpTo: (position, signal) =>
      caughtUpTo(position, AbortSignal.any([signal, stopping.signal])),
    catchUp,
    readVersion: readVersionFor(engine, stores.readStore, catchUp),
    health,
    secret: loadSecret(config),
    logger,
    metrics,
    reportHealth: reporter.report,
  };
  try {
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
        const bound = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
        const baseUrl = service.baseUrl?.(config) ?? `http://${config.HOST}:${port}`;
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
  } catch (error) {
    // the start's error is the one line the operator gets (src/processes/boot.ts)
    stopping.abort();
    await runStopSteps(stopSteps(), silentLogger);
    throw error;
  }
  // one line an operator (or a supervisor's readiness check) can wait for, in every role
  logger.info('started', { role });

  return {
    stores,
    engine,
    context,
    urls,
    stop: () => {
      stopping.abort();
      return runStopSteps(stopSteps(), logger);
    },
  };
}
