/**
 * A whole runtime in-process for end-to-end tests: real embedded stores in a temporary DATA_DIR,
 * real projections, each service listening on 127.0.0.1 at a free port.
 */
import { rmSync } from 'node:fs';
import { loadConfig } from '../../src/config/load.js';
import { type Logger, silentLogger } from '../../src/platform/logger.js';
import { type Runtime, startRuntime } from '../../src/platform/runtime.js';
import type { ServiceModule } from '../../src/platform/service.js';
import { bindAgain } from './ports.js';
import { tempDir } from './stores.js';

export interface TestRuntime {
  runtime: Runtime;
  dir: string;
  url(service: string): string;
  /** stop and start again over the same data (a process restart) */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The public board's buckets, wide enough for the bursts tests send (every test client is
 * 127.0.0.1); the spam tests set their own figures.
 */
export const WIDE_CAPTURE_LIMITS: Record<string, string> = {
  CAPTURE_IP_BURST: '100000',
  CAPTURE_IP_PER_HOUR: '1000000',
  CAPTURE_PERSON_BURST: '100000',
  CAPTURE_PERSON_PER_HOUR: '1000000',
  CAPTURE_PRODUCT_BURST: '1000000',
  CAPTURE_PRODUCT_PER_HOUR: '10000000',
};

/** What every service a test starts runs with, in-process or as a child process. */
export const TEST_SETTINGS: Record<string, string> = {
  LOG_LEVEL: 'error',
  // sign-in codes in the dev mailbox file the tests read; throttles wide enough for many
  // sign-ins per test file (the throttle tests set their own figures)
  DEV_MODE: 'true',
  SIGNIN_CODES_PER_ADDRESS: '1000',
  SIGNIN_CODES_PER_IP: '10000',
  SIGNIN_CODES_PER_ADDRESS_PER_DAY: '10000',
  ...WIDE_CAPTURE_LIMITS,
  // every test client is one account at one address; the budget and authorization-limit
  // tests set their own figures
  SEARCHES_PER_CALLER_BURST: '100000',
  AUTHORIZATION_REQUESTS_PER_IP: '100000',
  SEARCHES_PER_CALLER_PER_HOUR: '10000000',
};

export async function startTestRuntime(
  services: ServiceModule[],
  env: Record<string, string> = {},
  logger: Logger = silentLogger,
): Promise<TestRuntime> {
  const dir = env.DATA_DIR ?? tempDir('fb-e2e-');
  const config = loadConfig({
    FEEDBACK_PORT: '0',
    NOTES_PORT: '0',
    ...TEST_SETTINGS,
    ...env,
    DATA_DIR: dir,
  });
  // a port the test fixed (FEEDBACK_PORT for a restart on the same address) may be checked by
  // another run's freePort at the moment it is bound again
  const boot = () => bindAgain(() => startRuntime({ config, role: 'all', services, logger }));
  const handle: TestRuntime = {
    runtime: await boot(),
    dir,
    url(service) {
      const url = handle.runtime.urls.get(service);
      if (!url) throw new Error(`service ${service} is not running`);
      return url;
    },
    async restart() {
      await handle.runtime.stop();
      handle.runtime = await boot();
    },
    async stop() {
      await handle.runtime.stop();
      if (!env.DATA_DIR) rmSync(dir, { recursive: true, force: true });
    },
  };
  return handle;
}
