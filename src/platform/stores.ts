/**
 * Opens the two stores the configuration names: KurrentDB / MongoDB when their URLs are set,
 * otherwise the embedded SQLite file in DATA_DIR. A store that cannot be opened stops the
 * process with a clear message; nothing ever starts empty over unreadable data (documents of
 * the read store it cannot read: src/platform/unreadable-read-models.ts says what to do).
 */
import { join, resolve } from 'node:path';
import { domainEventVersions } from '../../commands/upcasters.js';
import { STORE_FILE } from '../config/data-dir.js';
import type { Config } from '../config/schema.js';
import type { EventStore } from '../eventstore/types.js';
import { versionedEventStore } from '../eventstore/versioned.js';
import { UnreadableDocumentsError } from '../readstore/embedded/errors.js';
import type { ReadStore } from '../readstore/types.js';
import type { Logger } from './logger.js';
import { type DataDirLock, lockDataDir } from './data-dir-lock.js';
import { fileLeases } from './file-lease.js';
import { type Lease, leaseIn } from './lease.js';
import { ensurePrivateDir, restrictFiles } from './private-files.js';

export interface Stores {
  /** what the application uses: old event shapes read upcast (src/eventstore/versioned.ts) */
  eventStore: EventStore;
  /** the log exactly as stored, no upcasting: export and verify read this */
  rawEventStore: EventStore;
  readStore: ReadStore;
  /**
   * A lease every process on these stores shares (one webhook worker delivers): in the read
   * store when it is MongoDB, else in the data file, since an embedded read store is each
   * process's own.
   */
  lease(collection: string, id: string): Lease;
  describe(): { eventStore: string; readStore: string };
  close(): Promise<void>;
}

export function embeddedFile(config: Config): string {
  return join(resolve(config.DATA_DIR), STORE_FILE);
}

export interface OpenStoresOptions {
  /** the MongoDB read store replaced its driver client (readstore/mongodb/client.ts) */
  onReadStoreClientReplaced?: (reason: string) => void;
  /** a server's stores: on the embedded read store, one server per DATA_DIR (data-dir-lock.ts) */
  server?: boolean;
  /** collections `rebuild` drops: the embedded read store opens without reading them */
  rebuilding?: readonly string[];
  /**
   * told when the embedded event log is migrated from an older schema at open (one-way), and when
   * the embedded read store leaves out a read model another process stored further on
   */
  logger?: Pick<Logger, 'info' | 'warn'>;
}

export async function openStores(config: Config, options: OpenStoresOptions = {}): Promise<Stores> {
  const needsFile = !config.EVENTSTORE_URL || !config.MONGODB_URL;
  if (needsFile) ensurePrivateDir(resolve(config.DATA_DIR));
  const file = embeddedFile(config);
  const lock =
    options.server && !config.MONGODB_URL && !config.SHARED_DATA_DIR
      ? lockDataDir(resolve(config.DATA_DIR))
      : undefined;
  try {
    return await openBoth(config, file, needsFile, options, lock);
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function openBoth(
  config: Config,
  file: string,
  needsFile: boolean,
  options: OpenStoresOptions,
  lock: DataDirLock | undefined,
): Promise<Stores> {
  const rawEventStore = config.EVENTSTORE_URL
    ? await (await import('../eventstore/kurrentdb/index.js')).openKurrentEventStore({
        connectionString: config.EVENTSTORE_URL,
      })
    : await (await import('../eventstore/embedded/index.js')).openEmbeddedEventStore({
        path: file,
        pollMs: config.EMBEDDED_POLL_MS,
        logger: options.logger,
      });
  // SQLite creates its files by the umask: made private at once, also when the read store
  // then fails to open and the start is refused; later -wal/-shm copy the database file's mode
  const restrict = () => needsFile && restrictFiles(file, `${file}-wal`, `${file}-shm`);
  restrict();
  let readStore: ReadStore;
  try {
    readStore = config.MONGODB_URL
      ? await (await import('../readstore/mongodb/index.js')).openMongoReadStore({
          url: config.MONGODB_URL,
          database: config.MONGODB_DATABASE,
          onClientReplaced: options.onReadStoreClientReplaced,
        })
      : await (await import('../readstore/embedded/index.js')).openEmbeddedReadStore({
          path: file,
          dropped: options.rebuilding,
          logger: options.logger,
        });
  } catch (error) {
    const refusal =
      error instanceof UnreadableDocumentsError
        ? await (await import('./unreadable-read-models.js')).adviceOnUnreadable(
            error,
            rawEventStore,
            options.rebuilding,
          )
        : error;
    await rawEventStore.close();
    throw refusal;
  }
  restrict();
  const leases = config.MONGODB_URL ? undefined : fileLeases(file);
  return {
    eventStore: versionedEventStore(rawEventStore, domainEventVersions()),
    rawEventStore,
    readStore,
    lease: (collection, id) =>
      leases ? leases.lease(`${collection}/${id}`) : leaseIn(readStore, collection, id),
    describe: () => ({
      // /readyz's report goes to operators, who paste it into tickets: which engine, not where
      // its files live or what its database is named
      eventStore: config.EVENTSTORE_URL ? 'kurrentdb' : 'embedded (SQLite)',
      readStore: config.MONGODB_URL ? 'mongodb' : 'embedded (SQLite)',
    }),
    async close() {
      leases?.close();
      await readStore.close();
      await rawEventStore.close();
      lock?.release();
    },
  };
}
