/**
 * The ServiceContext the runtime hands every service: the command handler with its append
 * metrics and readiness, the read-your-writes waits, the catch-up on other processes' writes,
 * and the process's health, secret, logger and metrics.
 */
import type { Projector } from '../../projections/shared/projector.js';
import type { Config } from '../config/schema.js';
import type { ProjectionEngine } from '../read/projection-engine.js';
import { createCommandHandler } from '../write/command-handler.js';
import { quietKeysIn } from '../write/quiet-keys.js';
import { catchUpFor, pendingFor } from './catch-up.js';
import { type HealthReporter, storedCheckpoints } from './health-report.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import type { ProjectionWaits } from './projection-waits.js';
import { timedWait } from './read-your-writes.js';
import { loadSecret } from './secret.js';
import type { ServiceContext } from './service.js';
import type { Stores } from './stores.js';

export function buildServiceContext(deps: {
  config: Config;
  stores: Stores;
  /** the engine this process projects with; none where another process applies the events */
  engine: ProjectionEngine | undefined;
  projectors: readonly Projector[];
  waits: ProjectionWaits;
  /** aborted when the process stops: ends the waits without a timeout (`caughtUpTo`) */
  stopping: AbortSignal;
  reporter: HealthReporter;
  metrics: Metrics;
  logger: Logger;
}): ServiceContext {
  const { config, stores, engine, projectors, waits, stopping, reporter, metrics, logger } = deps;
  const { readiness } = reporter;
  const adapter = { adapter: stores.eventStore.adapter };
  // writes and the reads that catch up first wait alike: timed, and named when they run out
  const timed = timedWait(waits.waitFor, {
    metrics,
    logger,
    checkpoints: () => (engine ? engine.checkpoints() : storedCheckpoints(stores, projectors)),
  });
  const view = engine && { position: () => engine.position(), waitFor: timed };
  const catchUp = catchUpFor(stores, view);
  return {
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
      waits.caughtUpTo(position, AbortSignal.any([signal, stopping])),
    catchUp,
    pendingOn: (only, everyMs) => pendingFor(stores, view, only, everyMs),
    observeApplied: (listener) => engine?.observe(listener),
    health: reporter.health,
    secret: loadSecret(config),
    logger,
    metrics,
    reportHealth: reporter.report,
  };
}
