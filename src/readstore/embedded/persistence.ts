/**
 * The read store's tables in the SQLite file. It may be the event store's file too, opened
 * through a separate connection, so every table is prefixed `rm_` and writers wait on each
 * other's locks (busy_timeout) instead of failing.
 *
 * Durability: WAL with synchronous=NORMAL. A process crash never loses a committed flush; a
 * power cut may lose the last flushes, which is safe because documents and checkpoints are
 * always committed together and the projectors replay from the older checkpoint.
 *
 * Several processes may flush into one file (SHARED_DATA_DIR), and a `rebuild` may drop a read
 * model under a process paused past its lease: a projection's part of a flush is left out when
 * the file holds it further on or rebuilt, checked inside the flush's transaction
 * (flush-guards.ts).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Doc, IndexSpec } from '../types.js';
import {
  refusedByFile,
  type UnreadableDocument,
  UnreadableDocumentsError,
  unavailable,
} from './errors.js';
import { type LeftOut, leftOut, type ProjectionGuard } from './flush-guards.js';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS rm_docs (
    collection TEXT NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL,
    PRIMARY KEY (collection, id)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS rm_indexes (
    collection TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL,
    PRIMARY KEY (collection, name)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS rm_checkpoints (
    projector TEXT PRIMARY KEY, position TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS rm_generations (
    collection TEXT PRIMARY KEY, generation INTEGER NOT NULL) WITHOUT ROWID;
`;

/** What one flush writes, in one transaction. */
export interface FlushBatch {
  droppedCollections: string[];
  upserts: { collection: string; id: string; json: string }[];
  deletes: { collection: string; id: string }[];
  indexes: { collection: string; declared: { name: string; spec: IndexSpec }[] }[];
  deletedCheckpoints: string[];
  checkpoints: [string, bigint][];
  /** the projections whose parts the file may refuse (flush-guards.ts) */
  guards: ProjectionGuard[];
  /** the collections' generations this process loaded or made (none: 0) */
  generations: ReadonlyMap<string, number>;
}

/** What a flush did besides writing: the parts it left out, the generations its drops made. */
export interface Written {
  left: LeftOut[];
  generations: [string, number][];
}

export interface LoadedState {
  docs: Map<string, Doc[]>;
  indexes: { collection: string; name: string; spec: IndexSpec }[];
  checkpoints: Map<string, bigint>;
  generations: Map<string, number>;
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
    generation: db.prepare('SELECT generation FROM rm_generations WHERE collection = ?').pluck(),
    nextGeneration: db
      .prepare(
        'INSERT INTO rm_generations (collection, generation) VALUES (?, 1) ' +
          'ON CONFLICT (collection) DO UPDATE SET generation = generation + 1 RETURNING generation',
      )
      .pluck(),
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
      const generations = new Map(
        this.db.prepare('SELECT collection, generation FROM rm_generations').raw().all() as [
          string,
          number,
        ][],
      );
      if (unreadable.length === 0) return { docs, indexes, checkpoints, generations };
    } catch (error) {
      throw unavailable(this.path, error);
    }
    throw new UnreadableDocumentsError(this.path, unreadable);
  }

  /** Writes the batch but the parts of projections the file refuses (flush-guards.ts). */
  write(batch: FlushBatch): Written {
    try {
      return this.writeBatch(batch);
    } catch (error) {
      throw refusedByFile(this.path, error);
    }
  }

  private writeBatch(batch: FlushBatch): Written {
    const { dropDocs, upsert, remove, dropIndexes, addIndex, dropCheckpoint, setCheckpoint } =
      this.statements;
    const { checkpoint, generation, nextGeneration } = this.statements;
    const stored = {
      checkpoint: (projector: string) => checkpoint.get(projector) as string | undefined,
      generation: (collection: string) => (generation.get(collection) as number | undefined) ?? 0,
    };
    // IMMEDIATE: take the write lock up front so a busy event-store writer makes us wait, not fail.
    return this.db
      .transaction((): Written => {
        // first: a rebuild's own replay starts from none stored
        for (const projector of batch.deletedCheckpoints) dropCheckpoint.run(projector);
        const dropping = new Set(batch.droppedCollections);
        const left = leftOut(batch.guards, stored, batch.generations, dropping);
        const refused = new Set(left.map(({ projector }) => projector));
        const skipped = new Set(
          batch.guards.filter((g) => refused.has(g.projector)).flatMap((g) => g.collections),
        );
        const generations: [string, number][] = [];
        for (const name of dropping) {
          if (skipped.has(name)) continue;
          dropDocs.run(name);
          generations.push([name, nextGeneration.get(name) as number]);
        }
        for (const { collection, id, json } of batch.upserts)
          if (!skipped.has(collection)) upsert.run(collection, id, json);
        for (const { collection, id } of batch.deletes)
          if (!skipped.has(collection)) remove.run(collection, id);
        for (const { collection, declared } of batch.indexes) {
          if (skipped.has(collection)) continue;
          dropIndexes.run(collection);
          for (const { name, spec } of declared)
            addIndex.run(collection, name, JSON.stringify(spec));
        }
        // a checkpoint behind the stored one is also left as it is by the statement itself
        for (const [projector, position] of batch.checkpoints)
          if (!refused.has(projector)) setCheckpoint.run(projector, position.toString());
        return { left, generations };
      })
      .immediate();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
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
