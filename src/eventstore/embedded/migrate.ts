/**
 * Files of older schema versions are migrated once, at the first open by this build, in one
 * transaction. Positions, revisions and bytes stay as they were.
 *
 *  - from version 1: SQLite cannot drop the index of a UNIQUE constraint, so the table is rebuilt
 *    (copied in position order into a new one, the old dropped, the new renamed), which removes
 *    the (stream_id, revision) index (the writer keeps it in memory since version 2);
 *  - from versions 1 and 2: the rows get their hash chain (chain.ts), computed over the rows as
 *    they are at this moment;
 *  - from version 3: each row's hash moves from its `hash` column into es_chain (chain-table.ts),
 *    unchanged, and the column is dropped.
 *
 * Why the chain is computed for old rows instead of starting at the migration point: `verify`
 * and a workspace export must cover every event (an export with unchained early events could not
 * be checked on import). What it means: the chain attests old rows as they were at migration —
 * not that nobody changed them before. `es_meta.chain_started` records where and when, and
 * `verify` prints it.
 *
 * Processes of an older build should be stopped first (they refuse version 4 at their next open).
 * One-way, so the operator is told: a line when it starts (file, versions, that older builds
 * will refuse the file) and one when it ends (how long, how many events).
 */
import type Database from 'better-sqlite3';
import { CHAIN_TABLE_SQL, createChainTable, UNCHAINED } from './chain-table.js';
import { unavailable } from './data-file.js';

/** where the migration says what it does; optional, so tests and tools may pass none */
export interface MigrationLog {
  info(message: string, fields?: Record<string, unknown>): void;
}

const COLUMNS = 'position, stream_id, revision, event_id, type, data, metadata';
const CHUNK = 5_000;

export function migrate(
  db: Database.Database,
  path: string,
  from: '1' | '2' | '3',
  createEventsTable: (name: string) => string,
  log?: MigrationLog,
): void {
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      // Another process may have migrated while we waited for the write lock.
      const version = db
        .prepare("SELECT value FROM es_meta WHERE key = 'schema_version'")
        .pluck()
        .get();
      const migrating = version === '1' || version === '2' || version === '3';
      const started = performance.now();
      if (migrating) announce(log, path, version);
      if (version === '1' || version === '2') {
        db.exec(createEventsTable('es_events_new'));
        db.exec(
          `INSERT INTO es_events_new (${COLUMNS}) SELECT ${COLUMNS} FROM es_events ORDER BY position`,
        );
        db.exec('DROP TABLE es_events');
        db.exec('ALTER TABLE es_events_new RENAME TO es_events');
        db.exec(CHAIN_TABLE_SQL);
        const last = db
          .prepare('SELECT coalesce(max(position), 0) FROM es_events')
          .pluck()
          .get() as number;
        createChainTable(db).extend(UNCHAINED, last);
        db.prepare("INSERT OR REPLACE INTO es_meta (key, value) VALUES ('chain_started', ?)").run(
          JSON.stringify({
            migratedFromVersion: Number(version),
            rowsChainedAtMigration: db.prepare('SELECT count(*) FROM es_events').pluck().get(),
            lastPositionAtMigration: last,
            at: new Date().toISOString(),
          }),
        );
      } else if (version === '3') {
        db.exec(CHAIN_TABLE_SQL);
        moveHashes(db);
        db.exec('ALTER TABLE es_events DROP COLUMN hash');
      }
      if (migrating) db.exec("UPDATE es_meta SET value = '4' WHERE key = 'schema_version'");
      db.exec('COMMIT');
      if (migrating) {
        const events = db.prepare('SELECT count(*) FROM es_events').pluck().get() as number;
        const durationMs = Math.round(performance.now() - started);
        log?.info(
          `event log ${path} migrated to schema version 4 in ${durationMs} ms (${events} events)`,
          { file: path, toVersion: 4, durationMs, events },
        );
      }
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  } catch (error) {
    throw unavailable(
      path,
      `cannot be migrated from event log schema version ${from} (${(error as Error).message})`,
      error,
    );
  }
}

function announce(log: MigrationLog | undefined, path: string, version: string): void {
  log?.info(
    `event log ${path}: migrating from schema version ${version} to 4; one-way: ` +
      'builds older than this one will refuse the file',
    { file: path, fromVersion: Number(version), toVersion: 4, oneWay: true },
  );
}

/**
 * Version 3 rows carry their hash; the ranges keep them as they are. A row without one (a log
 * written with the chain off) ends the copy: the writer chains it and every row after it.
 */
function moveHashes(db: Database.Database): void {
  const page = db
    .prepare(
      `SELECT position, hex(hash) FROM es_events WHERE position > ? ORDER BY position LIMIT ${CHUNK}`,
    )
    .raw();
  const table = createChainTable(db);
  let after = 0;
  for (;;) {
    const rows = page.all(after) as [number, string][];
    const chained = rows.findIndex(([, hex]) => hex.length !== 64);
    const kept = chained < 0 ? rows : rows.slice(0, chained);
    if (kept.length > 0) {
      const hex = kept.map(([, hash]) => hash.toLowerCase()).join('');
      table.write({ first: kept[0][0], last: kept[kept.length - 1][0], hex, head: hex.slice(-64) });
      after = kept[kept.length - 1][0];
    }
    if (chained >= 0 || rows.length < CHUNK) return;
  }
}
