/**
 * The read store's tables in the SQLite file. It may be the event store's file too, opened
 * through a separate connection, so every table is prefixed `rm_` and writers wait on each
 * other's locks (busy_timeout) instead of failing.
 *
 * Durability: WAL with synchronous=NORMAL. A process crash never loses a committed flush; a
 * power cut may lose the last flushes, which is safe because documents and checkpoints are
 * always committed together and the projectors replay from the older checkpoint.
 *
 * Several processes may flush into one file (SHARED_DATA_DIR), each from its own memory. A
 * projection's documents are written only by a process whose checkpoint for it is at or past the
 * stored one, checked inside the write's transaction (`guards`): a process behind would write
 * older copies of documents the stored checkpoint already covers, and since a checkpoint only
 * moves forward no replay would ever bring the newer ones back.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Doc, IndexSpec } from '../types.js';
import { ReadStoreUnavailableError } from '../types.js';
import { type UnreadableDocument, UnreadableDocumentsError } from './errors.js';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS rm_docs (
    collection TEXT NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL,
    PRIMARY KEY (collection, id)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS rm_indexes (
    collection TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL,
    PRIMARY KEY (collection, name)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS rm_checkpoints (
    projector TEXT PRIMARY KEY, position TEXT NOT NULL) WITHOUT ROWID;
`;

/** What one flush writes, in one transaction. */
export interface FlushBatch {
  droppedCollections: string[];
  upserts: { collection: string; id: string; json: string }[];
  deletes: { collection: string; id: string }[];
  indexes: { collection: string; declared: { name: string; spec: IndexSpec }[] }[];
  deletedCheckpoints: string[];
  checkpoints: [string, bigint][];
  /**
   * The projections this batch writes documents of: a projection's part (its collections'
   * drops, documents and indexes) is left out when the stored checkpoint is ahead of `position`,
   * this process's own (none: it has none, so any stored one is ahead).
   */
  guards: ProjectionGuard[];
}

export interface ProjectionGuard {
  projector: string;
  position: bigint | undefined;
  collections: readonly string[];
}

/** A projection whose part of a batch was left out: the file holds it at `stored`. */
export interface Behind {
  projector: string;
  position: bigint | undefined;
  stored: bigint;
}

export interface LoadedState {
  docs: Map<string, Doc[]>;
  indexes: { collection: string; name: string; spec: IndexSpec }[];
  checkpoints: Map<string, bigint>;
}

type Statements = ReturnType<typeof prepare>;

function prepare(db: Database.Database) {
  return {
    dropDocs: db.prepare('DELETE FROM rm_docs WHERE collection = ?'),
    upsert: db.prepare(
      'INSERT INTO rm_docs (collection, id, json) VALUES (?, ?, ?) ' +
        'ON CONFLICT (collection, id) DO UPDATE SET json = excluded.json',
    ),
    remove: db.prepare('DELETE FROM rm_docs WHERE collection = ? AND id = ?'),
    dropIndexes: db.prepare('DELETE FROM rm_indexes WHERE collection = ?'),
    addIndex: db.prepare('INSERT INTO rm_indexes (collection, name, spec) VALUES (?, ?, ?)'),
    dropCheckpoint: db.prepare('DELETE FROM rm_checkpoints WHERE projector = ?'),
    checkpoint: db.prepare('SELECT position FROM rm_checkpoints WHERE projector = ?').pluck(),
    // only forward (types.ts, `flush`): positions are decimal text without leading zeros, so
    // the longer is the greater, and of two as long the greater in text order
    setCheckpoint: db.prepare(
      'INSERT INTO rm_checkpoints (projector, position) VALUES (?, ?) ' +
        'ON CONFLICT (projector) DO UPDATE SET position = excluded.position ' +
        'WHERE length(excluded.position) > length(rm_checkpoints.position) OR ' +
        '(length(excluded.position) = length(rm_checkpoints.position) ' +
        'AND excluded.position > rm_checkpoints.position)',
    ),
  };
}

/**
 * Checkpoints (copying the WAL back into the file, with a sync) run in whichever connection
 * commits past its bound. By default this file is the event log's too, and the log's writer
 * thread checkpoints at 8 MiB of WAL (src/eventstore/embedded/schema.ts); with SQLite's default
 * bound here (1000 pages, 4 MiB) the read store's commits — on the main thread, every request's
 * thread — found the log's appends past 4 MiB and ran the checkpoint there. Measured with
 * bench:api's update_item_status (alternating runs): ~2,700 → ~3,200 requests/s once the read
 * store's bound is above the writer's. Alone in its file (KurrentDB holds the log), the read
 * store checkpoints itself at this bound.
 */
const WAL_AUTOCHECKPOINT_BYTES = 16 * 1024 * 1024;

export class ReadStoreFile {
  private readonly statements: Statements;

  private constructor(
    private readonly db: Database.Database,
    private readonly path: string,
  ) {
    this.statements = prepare(db);
  }

  static open(path: string): ReadStoreFile {
    let db: Database.Database | undefined;
    try {
      mkdirSync(dirname(path), { recursive: true });
      db = new Database(path, { timeout: 10_000 });
      db.pragma('busy_timeout = 10000');
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.pragma(`wal_autocheckpoint = ${Math.ceil(WAL_AUTOCHECKPOINT_BYTES / pageSize)}`);
      db.exec(SCHEMA);
      return new ReadStoreFile(db, path);
    } catch (error) {
      db?.close();
      throw unavailable(path, error);
    }
  }

  /**
   * Everything stored, parsed: one pass in primary-key order, one JSON.parse per document. The
   * collections in `skipped` are not read at all (a rebuild drops them: one it replaces must
   * not stop it for being unreadable). A document or index that cannot be read is not skipped
   * silently: each is collected, and the load fails with all of them named.
   */
  load(skipped: readonly string[] = []): LoadedState {
    const unreadable: UnreadableDocument[] = [];
    try {
      // rows arrive grouped by collection
      const docs = new Map<string, Doc[]>();
      const rows = this.db
        .prepare(
          'SELECT collection, id, json FROM rm_docs WHERE collection NOT IN (SELECT value FROM json_each(?))',
        )
        .raw();
      let currentName: string | undefined;
      let current: Doc[] = [];
      for (const [name, id, json] of rows.iterate(JSON.stringify(skipped)) as IterableIterator<
        [string, string, unknown]
      >) {
        if (name !== currentName) {
          currentName = name;
          current = docs.get(name) ?? [];
          docs.set(name, current);
        }
        const doc = parseStored(json, (reason) =>
          unreadable.push({ collection: name, id, reason }),
        );
        if (doc) current.push(doc);
      }
      const indexes: LoadedState['indexes'] = [];
      const declared = this.db
        .prepare(
          'SELECT collection, name, spec FROM rm_indexes WHERE collection NOT IN (SELECT value FROM json_each(?))',
        )
        .raw()
        .all(JSON.stringify(skipped)) as [string, string, unknown][];
      for (const [collection, name, spec] of declared) {
        const parsed = parseStored(spec, (reason) =>
          unreadable.push({ collection, id: `index ${name}`, reason }),
        );
        if (parsed) indexes.push({ collection, name, spec: parsed as unknown as IndexSpec });
      }
      const checkpoints = new Map<string, bigint>();
      const stored = this.db.prepare('SELECT projector, position FROM rm_checkpoints').all() as {
        projector: string;
        position: string;
      }[];
      for (const row of stored) checkpoints.set(row.projector, BigInt(row.position));
      if (unreadable.length === 0) return { docs, indexes, checkpoints };
    } catch (error) {
      throw unavailable(this.path, error);
    }
    throw new UnreadableDocumentsError(this.path, unreadable);
  }

  /** Writes the batch but the parts of projections the file holds further on; says which. */
  write(batch: FlushBatch): Behind[] {
    try {
      return this.writeBatch(batch);
    } catch (error) {
      throw refusedByFile(this.path, error);
    }
  }

  private writeBatch(batch: FlushBatch): Behind[] {
    const { dropDocs, upsert, remove, dropIndexes, addIndex, dropCheckpoint, setCheckpoint } =
      this.statements;
    // IMMEDIATE: take the write lock up front so a busy event-store writer makes us wait, not fail.
    return this.db
      .transaction(() => {
        // first: a rebuild's own replay starts from none stored
        for (const projector of batch.deletedCheckpoints) dropCheckpoint.run(projector);
        const behind = this.behind(batch.guards);
        const left = new Set(
          behind.flatMap(
            ({ projector }) =>
              batch.guards.find((guard) => guard.projector === projector)!.collections,
          ),
        );
        for (const name of batch.droppedCollections) if (!left.has(name)) dropDocs.run(name);
        for (const { collection, id, json } of batch.upserts)
          if (!left.has(collection)) upsert.run(collection, id, json);
        for (const { collection, id } of batch.deletes)
          if (!left.has(collection)) remove.run(collection, id);
        for (const { collection, declared } of batch.indexes) {
          if (left.has(collection)) continue;
          dropIndexes.run(collection);
          for (const { name, spec } of declared)
            addIndex.run(collection, name, JSON.stringify(spec));
        }
        // a checkpoint behind the stored one is left as it is by the statement itself
        for (const [projector, position] of batch.checkpoints)
          setCheckpoint.run(projector, position.toString());
        return behind;
      })
      .immediate();
  }

  /** the guarded projections whose stored checkpoint is ahead of this process's */
  private behind(guards: readonly ProjectionGuard[]): Behind[] {
    const behind: Behind[] = [];
    for (const { projector, position } of guards) {
      const stored = this.statements.checkpoint.get(projector) as string | undefined;
      if (stored === undefined) continue;
      const at = BigInt(stored);
      if (position === undefined || position < at) behind.push({ projector, position, stored: at });
    }
    return behind;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/**
 * SQLite's codes for a file it cannot write now — disk full, an I/O error, a read-only file
 * system, a lock held too long — as ReadStoreUnavailableError: the flush is tried again and the
 * process reports itself not ready (failure audit: a full disk stopped the projection engine for
 * good, every later write answering 500 while /readyz said ok). Any other error is a bug.
 */
const FILE_REFUSALS = /^SQLITE_(FULL|IOERR|READONLY|BUSY|LOCKED|CANTOPEN|NOMEM|PROTOCOL)/;

function refusedByFile(path: string, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !FILE_REFUSALS.test(code)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ReadStoreUnavailableError(`read store file ${path} refused a write: ${reason}`, {
    cause: error,
  });
}

function unavailable(path: string, error: unknown): ReadStoreUnavailableError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ReadStoreUnavailableError(
    `read store file ${path} cannot be opened as a read-store SQLite database (${reason}); ` +
      'refusing to start with empty read models — restore the file from a backup; do not move ' +
      'it away: on the embedded default it also holds the event log (`npm run cli -- verify` ' +
      'checks the log)',
    { cause: error },
  );
}

/** A stored document or index spec: JSON text of an object; anything else is reported. */
function parseStored(value: unknown, unreadable: (reason: string) => void): Doc | undefined {
  if (typeof value !== 'string') {
    unreadable(`stored as ${value instanceof Uint8Array ? 'bytes' : typeof value}, not text`);
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    // not the parser's message: it quotes the stored text, which may hold people's addresses
    unreadable(`${value.length} characters of text that is not JSON`);
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    unreadable(
      `JSON ${Array.isArray(parsed) ? 'array' : String(parsed === null ? null : typeof parsed)}, not a document`,
    );
    return undefined;
  }
  return parsed as Doc;
}
