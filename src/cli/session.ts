/**
 * A CLI command's view of the system: the configured stores (same DATA_DIR / EVENTSTORE_URL /
 * MONGODB_URL as the server), the command handler, and a projection engine of its own.
 *
 * The engine runs in this process whether or not a server runs too: before the command it
 * catches the read models up to the head of the log (so lookups such as "is this slug taken?"
 * see every earlier write), and after it waits until the command's events are projected, so the
 * next command — or the server reading the same read store — sees them. Projectors are
 * idempotent (position guards), so a server projecting the same events concurrently converges
 * to the same documents.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { feedbackProjectors } from '../../projections/feedback.js';
import { type CommandContext, createCommandHandler } from '../write/command-handler.js';
import type { Config } from '../config/schema.js';
import {
  createPersonIds,
  type FeedbackDeps,
  PERSON_ID_PURPOSE,
  type PeopleDeps,
} from '../feedback/actions/index.js';
import { idKeyFor } from '../platform/id-keys.js';
import { loadSecret } from '../platform/secret.js';
import {
  embeddedFile,
  type OpenStoresOptions,
  openStores,
  type Stores,
} from '../platform/stores.js';
import { createProjectionEngine } from '../read/projection-engine.js';
import { engineLog } from './engine-log.js';
import { UsageError } from './errors.js';
import { mustNotWrite, withPrivateCopy } from './read-only-copy.js';

/** Catching up a large log from scratch can take a while; the CLI can afford to wait. */
const CATCH_UP_MS = 10 * 60_000;

export interface Session {
  stores: Stores;
  deps: FeedbackDeps & PeopleDeps;
  /** metadata for the commands this session issues: no user actor, `via` names the tool */
  context(via?: string): CommandContext;
  /** wait until the read models include everything appended so far */
  caughtUp(): Promise<void>;
}

export async function withSession<T>(
  config: Config,
  run: (session: Session) => Promise<T>,
  options: Pick<OpenStoresOptions, 'server'> = {},
): Promise<T> {
  // a one-way migration of the data file is said on stderr; the answer stays stdout's. Not said:
  // that a running server stored a read model further on than this command's catch-up (its
  // documents are then left as the server wrote them, persistence.ts), which is the usual case
  const stores = await openStores(config, {
    ...options,
    logger: { info: (line) => console.error(line), warn: () => {} },
  });
  const log = engineLog();
  const engine = createProjectionEngine({
    eventStore: stores.eventStore,
    readStore: stores.readStore,
    projectors: feedbackProjectors(),
    waitTimeoutMs: CATCH_UP_MS,
    logger: log.logger,
  });
  let started = false;
  try {
    await engine.start();
    started = true;
    const commandHandler = createCommandHandler(stores.eventStore);
    const session: Session = {
      stores,
      deps: {
        commandHandler,
        readStore: stores.readStore,
        // the server's secret: people an import files are the ones the board files them as
        personIds: createPersonIds({
          commandHandler,
          readStore: stores.readStore,
          personIdKey: idKeyFor(loadSecret(config), PERSON_ID_PURPOSE),
        }),
      },
      context: (via = 'cli') => ({ actor: null, via, now: Date.now() }),
      caughtUp: async () => engine.waitFor(await stores.eventStore.headPosition()),
    };
    await session.caughtUp();
    const result = await run(session);
    await session.caughtUp();
    return result;
  } catch (error) {
    throw log.failed(error);
  } finally {
    // stop flushes the projected documents and checkpoints to the read store
    if (started) await engine.stop().catch(() => {});
    await stores.close().catch(() => {});
  }
}

/**
 * For a verb that only reads the stores (verify, export): runs `read` with the configuration to
 * open them with. That is `config`, unless this user must not write the embedded data file —
 * a backup mounted read-only, files of mode 0444 —, which is then read through a private copy
 * (read-only-copy.ts) and left exactly as it was: no file made beside it, no mode changed.
 */
export async function readingOnly<T>(
  config: Config,
  read: (config: Config) => Promise<T>,
): Promise<T> {
  if (!config.EVENTSTORE_URL) requireEmbeddedLog(config);
  const file = embeddedFile(config);
  const inDataDir = !config.EVENTSTORE_URL || !config.MONGODB_URL;
  if (!inDataDir || !existsSync(file) || !mustNotWrite(file)) return read(config);
  return withPrivateCopy(file, (copy) => read({ ...config, DATA_DIR: dirname(copy) }));
}

/**
 * The embedded log's file, which must exist: a verb that reads the log (verify, export, rebuild)
 * never creates it, so a mistyped DATA_DIR is refused instead of answered from a new, empty store.
 */
export function requireEmbeddedLog(config: Config): string {
  const path = embeddedFile(config);
  if (!existsSync(path)) throw new UsageError(`no event log at ${path}`);
  return path;
}

/** A session that holds DATA_DIR as a server does: `npm start -- --demo` seeds before it serves. */
export function withServerSession<T>(
  config: Config,
  run: (session: Session) => Promise<T>,
): Promise<T> {
  return withSession(config, run, { server: true });
}
