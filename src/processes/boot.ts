/**
 * Shared start-up for every process: read the configuration (refusing to start on a bad value),
 * start the runtime in the given role, stop cleanly on SIGINT/SIGTERM. Errors at start are
 * printed as one clear line, never a stack trace.
 */
import { ConfigError, loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { EventStoreUnavailableError } from '../eventstore/types.js';
import { sendLibraryNoticesTo, sendLibraryNoticesToConsole } from '../platform/library-notices.js';
import { createLogger, type Logger } from '../platform/logger.js';
import { type Role, type Runtime, startRuntime } from '../platform/runtime.js';
import { ReadStoreUnavailableError } from '../readstore/types.js';
import { serviceModules } from '../services.js';
import { stopWhenNpmIsGone } from './parent-watch.js';
import { checkBeforeStart, explainStartError } from './start-checks.js';

/** the signal, after the first, that ends a stop under way at once */
const FORCED_AFTER = 2;

export async function boot(role: Role, onStarted?: (runtime: Runtime) => Promise<void> | void) {
  let runtime: Runtime | undefined;
  let config: Config | undefined;
  let logger: Logger | undefined;
  /** signals heard while stopping: Ctrl-C reaches the process twice (the terminal and npm) */
  let repeats = 0;
  let stopping = false;
  // From the first moment: a standby projector waits in startRuntime for its lease, holding
  // nothing, and a signal then simply ends it (0); once started, the runtime stops cleanly.
  // Every step of the stop runs and logs its own failure (src/platform/stop-steps.ts); the exit
  // code is 1 only when the read store's last flush failed (README: Logs, metrics, shutdown).
  const stop = async (why: { signal: NodeJS.Signals } | { reason: string }, exitCode = 0) => {
    if (stopping) {
      // the second is the same Ctrl-C or a supervisor repeating itself; a third is someone
      // who wants out now, whatever the stop has left to do
      repeats += 1;
      if (repeats < FORCED_AFTER) return void logger?.info('stop already under way', why);
      logger?.warn('stop forced: exiting before the stop finished', why);
      process.exit(1);
    }
    stopping = true;
    if (!runtime) process.exit(exitCode);
    const began = performance.now();
    logger?.info('stopping', { role, ...why });
    const outcome = await runtime.stop();
    const durationMs = Math.round(performance.now() - began);
    if (outcome.failed.length === 0) logger?.info('stopped', { role, durationMs });
    else logger?.warn('stopped', { role, durationMs, failed: outcome.failed });
    process.exit(outcome.dataMayBeLost ? 1 : exitCode);
  };
  process.on('SIGINT', () => void stop({ signal: 'SIGINT' }));
  process.on('SIGTERM', () => void stop({ signal: 'SIGTERM' }));
  try {
    config = loadConfig();
    checkBeforeStart(role, config);
    logger = createLogger(config.LOG_LEVEL, { format: config.LOG_FORMAT });
    sendLibraryNoticesTo(logger);
    runtime = await startRuntime({
      config,
      role,
      services: serviceModules(),
      logger,
      // a projector that lost its lease ends; its supervisor restarts it, and it stands by
      onLeaseLost: () => void stop({ reason: 'projector lease lost' }, 1),
    });
    await onStarted?.(runtime);
  } catch (error) {
    const known =
      error instanceof ConfigError ||
      error instanceof EventStoreUnavailableError ||
      error instanceof ReadStoreUnavailableError;
    const explained = known
      ? (error as Error).message
      : config && explainStartError(error, config, role);
    // notices held for a logger never made (a setting refused) are lost unless written now
    if (!logger) sendLibraryNoticesToConsole();
    console.error(`cannot start: ${explained ?? String(error)}`);
    if (!explained && process.env.LOG_LEVEL === 'debug') console.error(error);
    await runtime?.stop().catch(() => {});
    process.exit(1);
  }
  stopWhenNpmIsGone(() => {
    logger?.warn('the npm process that started this server is gone: stopping');
    void stop({ reason: 'npm process gone' });
  });
  return runtime;
}
