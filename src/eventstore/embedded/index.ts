/**
 * The embedded event store: a durable event log in one SQLite file (better-sqlite3, WAL,
 * synchronous=FULL). Writes go through a dedicated writer thread with grouped commits
 * (writer-client.ts); reads and subscriptions use a connection on the calling thread.
 */
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Subscription,
  WrongExpectedRevisionError,
} from '../types.js';
import { assertCap, countsAbove, lowestOf } from '../count-behind.js';
import type { ImportedRow } from './batch-plan.js';
import { inspectDataFile, unavailable } from './data-file.js';
import type { MigrationLog } from './migrate.js';
import { createReader, type Reader, type StoredRow } from './reader.js';
import { createRecentRows } from './recent-rows.js';
import {
  applyPragmas,
  createDataFile,
  type IntegrityCheck,
  verifyOrCreateSchema,
} from './schema.js';
import { createCommitSignal, createSubscription } from './subscription.js';
import type { WireAppend } from './writer-protocol.js';
import { startWriter } from './writer-client.js';

export interface EmbeddedEventStoreOptions {
  /** the SQLite file; created with its schema when missing, refused when unreadable */
  path: string;
  /** `quick` runs SQLite's page-level check at open (default); `none` trusts header checks only */
  integrityCheck?: IntegrityCheck;
  /** how often a live subscription looks for appends made by another process (ms) */
  pollMs?: number;
  /**
   * false: rows get no hash chain. Only for benchmarks measuring what the chain costs; `verify`
   * reports such a file broken at its first row, and a store opened later with the chain on
   * chains every row then.
   */
  chain?: boolean;
  /** told when the file is migrated from an older schema (migrate.ts); none: silent */
  logger?: MigrationLog;
}

export type { ImportedRow } from './batch-plan.js';
export type { StoredRow } from './reader.js';

/** The embedded store's own extras beside the port: the stored bytes with their hash chain. */
export interface EmbeddedEventStore extends EventStore {
  readonly adapter: 'embedded';
  /**
   * Up to `limit` rows after `after` exactly as stored, with their chain hash (export, verify);
   * the newest rows may not be chained yet (hash ''): `sealChain` first.
   */
  readStored(after: bigint, limit: number): Promise<StoredRow[]>;
  /**
   * Stores the hash chain of every row committed so far (the writer stores a batch's chain with
   * the next transaction, chain-writer.ts); resolves to the log's last position at that moment,
   * up to which every row is chained (unless the log keeps no chain).
   */
  sealChain(): Promise<bigint>;
  /**
   * Appends events copied from another log under the positions they had there (they must follow
   * every position of this log), chained like any append; all rows or none. Returns the head.
   */
  importEvents(rows: readonly ImportedRow[]): Promise<bigint>;
}

export function isEmbeddedEventStore(store: EventStore): store is EmbeddedEventStore {
  return store.adapter === 'embedded' && 'readStored' in store;
}

export async function openEmbeddedEventStore(
  options: EmbeddedEventStoreOptions,
): Promise<EmbeddedEventStore> {
  const { path } = options;
  if (inspectDataFile(path) === 'missing') createDataFile(path);

  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: true });
  } catch (error) {
    throw unavailable(path, `cannot be opened (${(error as Error).message})`, error);
  }
  try {
    applyPragmas(db);
    verifyOrCreateSchema(db, path, options.integrityCheck ?? 'quick', options.logger);
  } catch (error) {
    db.close();
    throw error instanceof Error && error.name === 'EventStoreUnavailableError'
      ? error
      : unavailable(path, `cannot be opened (${(error as Error).message})`, error);
  }

  // Both sides index the log at open (stream-index.ts): the writer thread starts and scans while
  // this thread builds the reader's index, instead of one after the other.
  const writerStarting = startWriter(path, { chain: options.chain ?? true });
  let reader: Reader;
  try {
    reader = createReader(db);
  } catch (error) {
    db.close();
    await writerStarting.then(
      (started) => started.close(),
      () => undefined,
    );
    throw unavailable(path, `cannot be indexed (${(error as Error).message})`, error);
  }
  let writer: Awaited<ReturnType<typeof startWriter>>;
  try {
    writer = await writerStarting;
  } catch (error) {
    db.close();
    throw error;
  }

  const signal = createCommitSignal();
  const recent = createRecentRows();
  writer.onCommit((appends, results) => {
    if (appends && results) reader.indexCommitted(recent.committed(appends, results));
    signal.notify();
  });
  const pageAfter = (after: bigint, limit: number) =>
    recent.after(after, limit) ?? reader.pageAfter(after, limit);
  const subscriptions = new Set<Subscription>();
  let closed = false;

  const assertOpen = () => {
    if (closed) throw unavailable(path, 'the event store is closed');
  };

  return {
    adapter: 'embedded',

    async appendToStream(streamId, events, appendOptions = {}): Promise<AppendResult> {
      assertOpen();
      const expected = appendOptions.expectedRevision ?? 'any';
      validateExpected(expected);
      const wire: WireAppend = { streamId, expected, events: events.map(toWire) };
      const result = await writer.append(wire);
      switch (result.kind) {
        case 'appended':
          if (events.length === 0) return emptyAppendResult(result.nextExpectedRevision);
          return { nextExpectedRevision: result.nextExpectedRevision, position: result.position };
        case 'wrong-revision':
          throw new WrongExpectedRevisionError(streamId, expected, result.actual);
        case 'failed':
          throw unavailable(path, `append to ${streamId} failed (${result.message})`);
        default: {
          const _exhaustive: never = result;
          return _exhaustive;
        }
      }
    },

    async readStream(streamId, readOptions) {
      assertOpen();
      return reader.readStream(streamId, readOptions);
    },

    async readAll(readOptions) {
      assertOpen();
      return reader.readAll(readOptions);
    },

    subscribeToAll(subscribeOptions = {}) {
      assertOpen();
      const subscription = createSubscription(
        { pageAfter, signal, pollMs: options.pollMs ?? 250 },
        subscribeOptions,
        () => subscriptions.delete(subscription),
      );
      subscriptions.add(subscription);
      return subscription;
    },

    async headPosition() {
      assertOpen();
      return reader.headPosition();
    },

    async countBehindHead(positions, cap) {
      assertOpen();
      assertCap(cap);
      const lowest = lowestOf(positions);
      if (lowest === undefined) return { head: reader.headPosition(), counts: [] };
      const { head, newestFirst } = reader.newestAfter(lowest, cap);
      return { head, counts: countsAbove(newestFirst, positions, cap) };
    },

    pollNow(head) {
      // this process's own commits were signalled as they were committed: waking every
      // subscription for them again cost each a read of the file that found nothing new
      if (head > recent.last()) signal.notify();
    },

    async readStored(after, limit) {
      assertOpen();
      return reader.storedAfter(after, limit);
    },

    async sealChain() {
      assertOpen();
      return BigInt(await writer.sealChain());
    },

    async importEvents(rows) {
      assertOpen();
      if (rows.length === 0) return reader.headPosition();
      return BigInt(await writer.importRows([...rows]));
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...subscriptions].map((s) => s.close()));
      await writer.close();
      db.close();
    },
  };

  /** An empty append checks the revision and appends nothing: report where the stream stands. */
  function emptyAppendResult(revision: number): AppendResult {
    return { nextExpectedRevision: revision, position: reader.headPosition() };
  }
}

function toWire(event: NewEvent) {
  return {
    id: event.id ?? randomUUID(),
    type: event.type,
    data: JSON.stringify(event.data ?? null),
    metadata: JSON.stringify(event.metadata),
  };
}

function validateExpected(expected: ExpectedRevision): void {
  if (typeof expected === 'number' && !(Number.isInteger(expected) && expected >= 0)) {
    throw new RangeError(`expected revision must be a non-negative integer, got ${expected}`);
  }
}
