/**
 * The production shape for a test to drive (README "Running on KurrentDB + MongoDB"): two
 * `start:api` processes, one `start:projector` and, when asked, one `start:webhooks`, each its
 * own child process over EVENTSTORE_URL and MONGODB_URL (../shared/engines/ starts stand-ins),
 * with a fresh MONGODB_DATABASE dropped at stop. Every process has the same public base URLs
 * (API process A's), as behind a load balancer: tokens, links and messages name one address
 * whichever process made them. `session()` is the admin CLI's view of the stores (src/cli/
 * session.ts) in this process, for seeding what no API operation creates.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { MongoClient } from 'mongodb';
import { withSession, type Session } from '../../src/cli/session.js';
import { allProjectors } from '../../projections/all.js';
import { checkpointId } from '../../projections/shared/projector.js';
import { loadConfig } from '../../src/config/load.js';
import { openStores } from '../../src/platform/stores.js';
import { createCheckpointWaiter } from '../../src/read/checkpoint-waiter.js';
import { removeDir } from '../cli/support.js';
import { freePort } from './ports.js';
import { STARTED, startScript } from './processes.js';
import { TEST_SETTINGS } from './runtime.js';
import { tempDir } from './stores.js';

export interface SplitDeployment {
  /** each API process's own address, per service */
  feedback: string[];
  notes: string[];
  /** the environment every process runs with */
  env: Record<string, string>;
  /** runs `seed` with the CLI's session of the stores, then waits for its read models */
  session<T>(seed: (session: Session) => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

/** Why a split deployment cannot start here, or undefined when it can. */
export function splitUnavailable(): string | undefined {
  if (!process.env.EVENTSTORE_URL || !process.env.MONGODB_URL) {
    return 'a split deployment needs EVENTSTORE_URL and MONGODB_URL (../shared/engines/up.sh)';
  }
  return undefined;
}

export async function startSplitDeployment(
  options: { env?: Record<string, string>; webhooks?: boolean } = {},
): Promise<SplitDeployment> {
  const why = splitUnavailable();
  if (why) throw new Error(why);
  const database = `split_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const dir = tempDir('split-');
  const ports = await Promise.all([0, 1, 2, 3].map(() => freePort()));
  const [feedbackA, notesA] = ports.map((port) => `http://127.0.0.1:${port}`);
  const env: Record<string, string> = {
    ...TEST_SETTINGS,
    LOG_LEVEL: 'info',
    DATA_DIR: dir,
    EVENTSTORE_URL: process.env.EVENTSTORE_URL!,
    MONGODB_URL: process.env.MONGODB_URL!,
    MONGODB_DATABASE: database,
    APP_SECRET: 'a-test-secret-shared-by-every-process-0123456789',
    FEEDBACK_BASE_URL: feedbackA!,
    NOTES_BASE_URL: notesA!,
    NOTES_ALT_BASE_URL: notesA!.replace('127.0.0.1', 'localhost'),
    ...options.env,
  };
  const children: ReturnType<typeof startScript>[] = [];
  const names: string[] = [];
  const start = (script: string, extra: Record<string, string>, ready: RegExp) => {
    const child = startScript(script, { ...env, ...extra }, ready);
    children.push(child);
    names.push(`${names.length}-${basename(script, '.ts')}`);
    return child;
  };
  const stop = async () => {
    const started = await Promise.allSettled(children);
    for (const child of started) if (child.status === 'fulfilled') child.value.kill('SIGKILL');
    // SPLIT_LOGS=<dir> keeps what each process logged, to see what the servers saw
    const logs = process.env.SPLIT_LOGS;
    if (logs) {
      mkdirSync(logs, { recursive: true });
      started.forEach((child, i) => {
        if (child.status !== 'fulfilled') return;
        writeFileSync(join(logs, `${database}-${names[i]}.log`), child.value.output);
      });
    }
    const client = new MongoClient(env.MONGODB_URL!);
    try {
      await client.db(database).dropDatabase();
    } finally {
      await client.close();
    }
    removeDir(dir);
  };
  try {
    await start('src/processes/projector.ts', { FEEDBACK_PORT: '0', NOTES_PORT: '0' }, STARTED);
    await caughtUp(env);
    const apis = [0, 1].map((i) => ({
      FEEDBACK_PORT: `${ports[i * 2]}`,
      NOTES_PORT: `${ports[i * 2 + 1]}`,
    }));
    await Promise.all(apis.map((ports) => start('src/processes/api.ts', ports, STARTED)));
    if (options.webhooks) await start('src/processes/webhooks.ts', {}, STARTED);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    feedback: [`http://127.0.0.1:${ports[0]}`, `http://127.0.0.1:${ports[2]}`],
    notes: [`http://127.0.0.1:${ports[1]}`, `http://127.0.0.1:${ports[3]}`],
    env,
    session: (seed) => withSession(loadConfig(env), seed),
    stop,
  };
}

/**
 * A KurrentDB keeps its log between runs, and the projector replays it into the fresh database
 * first: the deployment is ready once every read model holds the head of the log, as an API
 * process waits for it (src/read/checkpoint-waiter.ts), not at the first write's expense.
 */
async function caughtUp(env: Record<string, string>): Promise<void> {
  const stores = await openStores(loadConfig(env));
  try {
    const waiter = createCheckpointWaiter(stores.readStore, allProjectors().map(checkpointId));
    await waiter.waitFor(await stores.eventStore.headPosition(), 300_000);
  } finally {
    await stores.close();
  }
}
