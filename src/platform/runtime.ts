/**
 * Boots a process in one of three roles over the configured stores:
 *  - `all` (embedded default): every service's HTTP app, the projections and the workers;
 *  - `api`: the HTTP apps only; read-your-writes waits on the projector checkpoints;
 *  - `projector`: the projections and background workers only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCommandHandler } from '../commands/handler.js';
import type { Config } from '../config/schema.js';
import { createCheckpointWaiter } from '../projection/checkpoint-waiter.js';
import { createProjectionEngine, type ProjectionEngine } from '../projection/engine.js';
import type { Logger } from './logger.js';
import { lazyEmbedder } from '../search/create-embedder.js';
import { loadSecret } from './secret.js';
import type { HealthReport, ServiceContext, ServiceModule } from './service.js';
import { openStores, type Stores } from './stores.js';

export type Role = 'all' | 'api' | 'projector';

export interface Runtime {
  stores: Stores;
  engine?: ProjectionEngine;
  context: ServiceContext;
  /** base URL each service listens on, by service name */
  urls: Map<string, string>;
  stop(): Promise<void>;
}

export async function startRuntime(options: {
  config: Config;
  role: Role;
  services: readonly ServiceModule[];
  logger: Logger;
}): Promise<Runtime> {
  const { config, role, services, logger } = options;
  const stores = await openStores(config);
  const stoppers: (() => Promise<void>)[] = [];
  const extras = new Map<string, () => unknown>();
  const embedder = lazyEmbedder({ modelDir: config.MODEL_DIR, logger });
  const booted = services.map((service) => ({
    service,
    instance: service.boot({ config, logger, embedder }),
  }));
  const projectors = booted.flatMap(({ instance }) => instance.projectors);

  let engine: ProjectionEngine | undefined;
  let waitFor: (position: bigint) => Promise<void>;
  if (role === 'api') {
    const waiter = createCheckpointWaiter(
      stores.readStore,
      projectors.map((p) => p.name),
      {
        timeoutMs: config.PROJECTION_WAIT_MS,
      },
    );
    waitFor = (position) => waiter.waitFor(position);
  } else {
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
  }

  async function health(): Promise<HealthReport> {
    const projections = engine
      ? await engine.status()
      : await checkpointStatus(
          stores,
          projectors.map((p) => p.name),
        );
    const report: HealthReport = {
      status: 'ok',
      role,
      stores: stores.describe(),
      projections,
    };
    for (const [key, value] of extras) report[key] = value();
    return report;
  }

  const context: ServiceContext = {
    config,
    stores,
    commands: createCommandHandler(stores.eventStore),
    waitFor,
    health,
    secret: loadSecret(config),
    logger,
    reportHealth: (key, value) => extras.set(key, value),
  };

  const urls = new Map<string, string>();
  try {
    if (role !== 'projector') {
      for (const { service, instance } of booted) {
        // Listen first: with port 0 the base URL (the OAuth issuer) is known only afterwards.
        const server = await listen(service.port(config), config.HOST);
        stoppers.push(() => closeServer(server));
        const { port } = server.address() as AddressInfo;
        const baseUrl = service.baseUrl?.(config) ?? `http://${config.HOST}:${port}`;
        server.on('request', await instance.createApp(context, { port, baseUrl }));
        urls.set(service.name, baseUrl);
        logger.info(`${service.name} service listening`, { url: baseUrl });
      }
    }
    if (role !== 'api') {
      for (const { instance } of booted) {
        const workers = await instance.startWorkers?.(context);
        if (workers) stoppers.push(() => workers.stop());
      }
    }
  } catch (error) {
    for (const stop of stoppers.reverse()) await stop().catch(() => {});
    await engine?.stop();
    await embedder.close();
    await stores.close();
    throw error;
  }

  return {
    stores,
    engine,
    context,
    urls,
    async stop() {
      for (const stop of stoppers.reverse()) await stop();
      await engine?.stop();
      await embedder.close();
      await stores.close();
    },
  };
}

function listen(port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

async function checkpointStatus(stores: Stores, names: string[]) {
  const head = await stores.eventStore.headPosition();
  const stored = await stores.readStore.checkpoints();
  return {
    head: head.toString(),
    projectors: names.map((name) => {
      const at = stored.get(name) ?? 0n;
      return { name, checkpoint: at.toString(), lag: (head - at).toString() };
    }),
  };
}
