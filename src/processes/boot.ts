/**
 * Shared start-up for every process: read the configuration (refusing to start on a bad value),
 * start the runtime in the given role, stop cleanly on SIGINT/SIGTERM. Errors at start are
 * printed as one clear line, never a stack trace.
 */
import { ConfigError, loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { EventStoreUnavailableError } from '../eventstore/types.js';
import { createLogger, type Logger } from '../platform/logger.js';
import { type Role, type Runtime, startRuntime } from '../platform/runtime.js';
import { ReadStoreUnavailableError } from '../readstore/types.js';
import { serviceModules } from '../services.js';
import { stopWhenNpmIsGone } from './parent-watch.js';
import { checkBeforeStart, explainStartError } from './start-checks.js';

export async function boot(role: Role, onStarted?: (runtime: Runtime) => Promise<void> | void) {
  let runtime: Runtime | undefined;
  let config: Config | undefined;
  let logger: Logger | undefined;
  let started = false;
  // From the first moment: a standby projector waits in startRuntime for its lease, holding
  // nothing, and a signal then simply ends it (0); once started, the runtime stops cleanly.
  const stop = async () => {
    if (started) await runtime?.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    config = loadConfig();
    checkBeforeStart(role, config);
    logger = createLogger(config.LOG_LEVEL, { format: config.LOG_FORMAT });
    runtime = await startRuntime({
      config,
      role,
      services: serviceModules(),
      logger,
      // a projector that lost its lease ends; its supervisor restarts it, and it stands by
      onLeaseLost: () => {
        void runtime?.stop().finally(() => process.exit(1));
      },
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
    console.error(`cannot start: ${explained ?? String(error)}`);
    if (!explained && process.env.LOG_LEVEL === 'debug') console.error(error);
    await runtime?.stop().catch(() => {});
    process.exit(1);
  }
  started = true;
  stopWhenNpmIsGone(() => {
    logger?.warn('the npm process that started this server is gone: stopping');
    void stop();
  });
  return runtime;
}
