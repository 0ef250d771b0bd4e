/**
 * Files of older schema versions are rebuilt once, at the first open by this build, in one
 * transaction: copy every row in position order into a table of the current schema, drop the
 * old table, rename. Positions, revisions and bytes stay as they were.
 *
 *  - from version 1: SQLite cannot drop the index of a UNIQUE constraint, so the rebuild is what
 *    removes the (stream_id, revision) index (the writer keeps it in memory since version 2);
 *  - from versions 1 and 2: the rows get their hash chain (chain.ts), computed over the rows as
 *    they are at this moment.
 *
 * Why the chain is computed for old rows instead of starting at the migration point: `verify`
 * and a workspace export must cover every event (an export with unchained early events could not
 * be checked on import). What it means: the chain attests old rows as they were at migration —
 * not that nobody changed them before. `es_meta.chain_started` records where and when, and
 * `verify` prints it.
 *
 * Processes of an older build should be stopped first (they refuse version 3 at their next open).
 */
import type Database from 'better-sqlite3';
import { chainHash, GENESIS, STORED_HASH } from './chain.js';
import { unavailable } from './data-file.js';

const COLUMNS = 'position, stream_id, revision, event_id, type, data, metadata';
const CHUNK = 5_000;

type OldRow = [number, string, number, string, string, string, string];

export function migrateToChained(
  db: Database.Database,
  path: string,
  from: '1' | '2',
  createChainedTable: string,
): void {
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      // Another process may have migrated while we waited for the write lock.
      const version = db
        .prepare("SELECT value FROM es_meta WHERE key = 'schema_version'")
        .pluck()
        .get();
      if (version === '1' || version === '2') {
        db.exec(createChainedTable);
        const { rows, last } = copyWithChain(db);
        db.exec('DROP TABLE es_events');
        db.exec('ALTER TABLE es_events_v3 RENAME TO es_events');
        db.exec("UPDATE es_meta SET value = '3' WHERE key = 'schema_version'");
        db.prepare("INSERT OR REPLACE INTO es_meta (key, value) VALUES ('chain_started', ?)").run(
          JSON.stringify({
            migratedFromVersion: Number(version),
            rowsChainedAtMigration: rows,
            lastPositionAtMigration: last,
            at: new Date().toISOString(),
          }),
        );
      }
      db.exec('COMMIT');
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

function copyWithChain(db: Database.Database): { rows: number; last: number } {
  const page = db
    .prepare(`SELECT ${COLUMNS} FROM es_events WHERE position > ? ORDER BY position LIMIT ${CHUNK}`)
    .raw();
  const insert = db.prepare(
    `INSERT INTO es_events_v3 (${COLUMNS}, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ${STORED_HASH})`,
  );
  let previous = GENESIS;
  let after = 0;
  let rows = 0;
  for (;;) {
    const chunk = page.all(after) as OldRow[];
    for (const [position, streamId, revision, eventId, type, data, metadata] of chunk) {
      previous = chainHash(previous, { streamId, revision, eventId, type, data, metadata });
      insert.run(position, streamId, revision, eventId, type, data, metadata, previous);
      after = position;
    }
    rows += chunk.length;
    if (chunk.length < CHUNK) return { rows, last: after };
  }
}
