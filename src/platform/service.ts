/**
 * What a service (feedback board, notes) plugs into the runtime: its projectors and a factory
 * for its Express app. The runtime owns the stores, the command handler and the projections.
 */
import type { RequestListener } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Projector } from '../../projections/shared/projector.js';
import type { EventFilter } from '../eventstore/types.js';
import type { AppliedListener } from '../read/projection-engine.js';
import type { CommandHandler } from '../write/command-handler.js';
import type { Config } from '../config/schema.js';
import type { EmbedderHandle } from '../search/create-embedder.js';
import type { PendingEvents } from './catch-up.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import type { Stores } from './stores.js';

export interface HealthReport {
  status: 'ok' | 'degraded';
  role: string;
  stores: { eventStore: string; readStore: string };
  projections: {
    head: string;
    projectors: { name: string; checkpoint: string; lag: string }[];
    flushFailure?: string;
    stopped?: string;
  };
  [extra: string]: unknown;
}

export interface ServiceContext {
  config: Config;
  stores: Stores;
  commandHandler: CommandHandler;
  /**
   * resolves once the read models include the log up to `position` (read-your-writes): timed by
   * PROJECTION_WAIT_MS, counted and, when it runs out, logged (platform/read-your-writes.ts)
   */
  waitFor(position: bigint): Promise<void>;
  /**
   * For work that is no request's (a worker at start-up): true once the read models include the
   * log up to `position`, however long a rebuild takes; false once `signal` aborts or the
   * process stops first. No timeout, and nothing in the read-your-writes metrics or warnings.
   */
  caughtUpTo(position: bigint, signal: AbortSignal): Promise<boolean>;
  /**
   * Resolves once this process's read models include every event in the log at the time of the
   * call, appended by any process (the admin CLI included). Authentication awaits it so a
   * revocation, removal or role change made elsewhere applies to the very next request.
   */
  catchUp(): Promise<void>;
  /**
   * `catchUp` bounded to the events `only` keeps, and left to the caller: the events of them in
   * the log the read models lack, and a wait for a position (timed as every wait). A caller waits
   * for those that change its own answer (authentication: its own credential's revocation, its
   * own memberships; a board page: its own product's and workspace's changes), not for another's
   * new token or product, nor for an item event a projector is stuck on. `everyMs`: the log is
   * asked at most that often, the last answer given between. Make one per use, not one per
   * request: each reads only what was appended since its last. null where another process
   * applies the events (MongoDB): the CLI writes the shared read models itself, nothing can be
   * pending, and nothing is heard (`observeApplied`), so nothing may be cached on it either.
   */
  pendingOn(only: EventFilter, everyMs?: number): (() => Promise<PendingEvents>) | null;
  /**
   * `listener` hears of each event once this process's read models include it, before a write's
   * answer waits on it returns (projection-engine.ts `observe`): a cache over the read models can
   * tell which of its entries an event changed. Nothing is heard where another process applies
   * the events (then `pendingOn` is null too).
   */
  observeApplied(listener: AppliedListener): void;
  health(): Promise<HealthReport>;
  secret: string;
  logger: Logger;
  metrics: Metrics;
  /**
   * extra values for the health output, registered by components (e.g. search); may be async.
   * Reports under one key are merged (platform/health.ts `mergeReports`).
   */
  reportHealth(key: string, value: () => unknown): void;
}

/** Where a service ended up listening; known only after `listen` when its port is 0. */
export interface Listening {
  port: number;
  /** the configured public base URL, or http://HOST:port */
  baseUrl: string;
}

export interface ServiceModule {
  readonly name: string;
  /** which port the service listens on (0 = any free port) */
  readonly port: (config: Config) => number;
  /** the configured public base URL, when there is one */
  readonly baseUrl?: (config: Config) => string | undefined;
  /**
   * One boot of the service. State that lives as long as the process runs (the search index, the
   * embedder) belongs to the instance, so a restart in the same process starts it afresh.
   */
  boot(env: BootEnv): ServiceInstance;
}

export interface BootEnv extends Pick<ServiceContext, 'config' | 'logger'> {
  /** the process's one search embedder, loaded on first use and shared by every service */
  embedder: EmbedderHandle;
}

export interface ServedApp {
  /** the Express app */
  app: RequestListener;
  /**
   * node:http's own refusals (oversize headers, unparsable requests) in the service's envelope;
   * returns the status answered, undefined when the client was gone (telemetry.ts counts it)
   */
  onClientError(error: Error & { code?: string }, socket: Duplex): number | undefined;
}

export interface ServiceInstance {
  /** its read models, in the order they must apply (a projector may read an earlier one's docs) */
  readonly projectors: readonly Projector[];
  /** the service's Express app, which serves every request of its server */
  createApp(ctx: ServiceContext, listening: Listening): Promise<ServedApp>;
  /** background work started with the projector role (indexers, process managers) */
  startWorkers?(ctx: ServiceContext): Promise<{ stop(): Promise<void> }>;
  /**
   * side effects driven by the log (outbound webhooks), started in the embedded default and,
   * with real engines, by their own process (`npm run start:webhooks`)
   */
  startWebhooks?(ctx: ServiceContext): Promise<{ stop(): Promise<void> }>;
}
