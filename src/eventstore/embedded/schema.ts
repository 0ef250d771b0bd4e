/**
 * The event log's tables inside the SQLite file. The read store may keep its own tables in the
 * same file, so ours carry an `es_` prefix and a schema version row.
 *
 * `position` is the rowid: assigned under SQLite's single write lock, so it grows in commit order,
 * and a reader that sees position P committed has seen every position below it.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { unavailable } from './data-file.js';
import { CHAIN_TABLE_SQL } from './chain-table.js';
import { type MigrationLog, migrate } from './migrate.js';

/**
 * Version 2 dropped the SQLite index on (stream_id, revision): uniqueness is enforced by the
 * writer against its in-memory index under SQLite's write lock (stream-index.ts,
 * writer-worker.ts). Version 3 added the hash chain (chain.ts) as every row's `hash`; version 4
 * keeps it beside the rows, one range per batch (es_chain, chain-table.ts). Older files are
 * migrated at open (migrate.ts).
 */
export const SCHEMA_VERSION = '4';

/** The events table; `name` lets the migration build it beside the old one. */
export function eventsTableSql(name: string): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (
  position  INTEGER PRIMARY KEY,
  stream_id TEXT    NOT NULL,
  revision  INTEGER NOT NULL,
  event_id  TEXT    NOT NULL,
  type      TEXT    NOT NULL,
  data      TEXT    NOT NULL,
  metadata  TEXT    NOT NULL
) STRICT;`;
}

const CREATE_SQL = `
CREATE TABLE IF NOT EXISTS es_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
${eventsTableSql('es_events')}
${CHAIN_TABLE_SQL}
INSERT OR IGNORE INTO es_meta (key, value) VALUES ('schema_version', '${SCHEMA_VERSION}');
`;

const EXPECTED_COLUMNS = [
  'position',
  'stream_id',
  'revision',
  'event_id',
  'type',
  'data',
  'metadata',
];

/**
 * With no index, a grouped commit only rewrites the table's last pages, so larger pages mean
 * fewer WAL frames (each with its own header) for the same bytes. Measured with 100 appends per
 * commit: 4 KiB pages commit ~1.3x faster than 1 KiB. (Version 1 files keep their page size.)
 */
const PAGE_SIZE = 4096;
/** Checkpoint every ~8 MiB of WAL instead of 1000 pages: fewer syncs of the main file, and a
 * page dirtied by many commits is copied back once. SQLite counts in pages, and the page size
 * depends on the file (version 1 files have 1 KiB pages). Measured with 100 writers: 8 MiB and
 * 32 MiB perform alike, so the smaller bound on the WAL wins. */
const WAL_AUTOCHECKPOINT_BYTES = 8 * 1024 * 1024;

/** Durability first: WAL with a full sync of the log on every commit. */
export function applyPragmas(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 10000');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.pragma(`wal_autocheckpoint = ${Math.ceil(WAL_AUTOCHECKPOINT_BYTES / pageSize)}`);
}

/**
 * A new file is built under a temporary name and renamed into place, so a crash during
 * creation never leaves a half-made file at `path` that a later start would mistake for data.
 */
export function createDataFile(path: string): void {
  const temporary = `${path}.creating-${process.pid}`;
  try {
    const db = new Database(temporary);
    try {
      db.pragma(`page_size = ${PAGE_SIZE}`);
      db.pragma('journal_mode = WAL');
      db.exec(CREATE_SQL);
      // Leaving WAL mode set in the header makes every later connection use it.
    } finally {
      db.close();
    }
    const fd = openSync(temporary, 'r');
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temporary, path);
    fsyncDirectory(dirname(path));
  } catch (error) {
    rmSync(temporary, { force: true });
    rmSync(`${temporary}-wal`, { force: true });
    rmSync(`${temporary}-shm`, { force: true });
    throw unavailable(path, `cannot be created (${(error as Error).message})`, error);
  }
}

function fsyncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic there.
  }
}

export type IntegrityCheck = 'quick' | 'none';

/**
 * Verifies an existing file: readable by SQLite, optionally page-level consistent, and either
 * without our tables (another component created the file first; we add them) or with exactly
 * the schema we expect.
 */
export function verifyOrCreateSchema(
  db: Database.Database,
  path: string,
  check: IntegrityCheck,
  log?: MigrationLog,
): void {
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (error) {
    throw unavailable(
      path,
      `is not a readable SQLite database (${(error as Error).message})`,
      error,
    );
  }
  if (check === 'quick') {
    let result: unknown[];
    try {
      result = db.pragma('quick_check', { simple: false }) as unknown[];
    } catch (error) {
      throw unavailable(path, `failed its integrity check (${(error as Error).message})`, error);
    }
    const messages = result.map((row) => Object.values(row as object)[0]);
    if (messages.length !== 1 || messages[0] !== 'ok') {
      throw unavailable(path, `failed its integrity check: ${messages.slice(0, 3).join('; ')}`);
    }
  }
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('es_meta', 'es_events')",
    )
    .pluck()
    .all() as string[];
  if (tables.length === 0) {
    try {
      db.exec(CREATE_SQL);
    } catch (error) {
      throw unavailable(
        path,
        `cannot hold the event log schema (${(error as Error).message})`,
        error,
      );
    }
    return;
  }
  if (tables.length !== 2)
    throw unavailable(path, 'has a partial event log schema (es_meta or es_events missing)');
  const version = db
    .prepare("SELECT value FROM es_meta WHERE key = 'schema_version'")
    .pluck()
    .get();
  if (version === '1' || version === '2' || version === '3') {
    migrate(db, path, version, eventsTableSql, log);
  } else if (version !== SCHEMA_VERSION) {
    throw unavailable(
      path,
      `has event log schema version ${String(version)}, this build reads ${SCHEMA_VERSION}`,
    );
  }
  const columns = (db.pragma('table_info(es_events)') as { name: string }[]).map((c) => c.name);
  if (columns.join(',') !== EXPECTED_COLUMNS.join(',')) {
    throw unavailable(path, `has an unexpected es_events table (columns: ${columns.join(', ')})`);
  }
  const chain = (db.pragma('table_info(es_chain)') as { name: string }[]).map((c) => c.name);
  if (chain.join(',') !== 'first,last,hashes') {
    throw unavailable(path, 'has no es_chain table of the expected shape');
  }
}
