/**
 * Schema version 1 kept a UNIQUE (stream_id, revision) index in SQLite. Version 2 drops it (the
 * writer enforces uniqueness against its in-memory index), and SQLite cannot drop the index of a
 * UNIQUE constraint, so the table is rebuilt: copy in position order, drop, rename — one
 * transaction, positions and rows unchanged. It runs once, at the first open by this build;
 * processes of an older build should be stopped first (they refuse version 2 at their next open).
 */
import type Database from 'better-sqlite3';
import { unavailable } from './data-file.js';

const COLUMNS = 'position, stream_id, revision, event_id, type, data, metadata';

export function migrateFromVersion1(
  db: Database.Database,
  path: string,
  createVersion2Table: string,
): void {
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      // Another process may have migrated while we waited for the write lock.
      const version = db
        .prepare("SELECT value FROM es_meta WHERE key = 'schema_version'")
        .pluck()
        .get();
      if (version === '1') {
        db.exec(createVersion2Table);
        db.exec(
          `INSERT INTO es_events_v2 (${COLUMNS}) SELECT ${COLUMNS} FROM es_events ORDER BY position`,
        );
        db.exec('DROP TABLE es_events');
        db.exec('ALTER TABLE es_events_v2 RENAME TO es_events');
        db.exec("UPDATE es_meta SET value = '2' WHERE key = 'schema_version'");
      }
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  } catch (error) {
    throw unavailable(
      path,
      `cannot be migrated from event log schema version 1 (${(error as Error).message})`,
      error,
    );
  }
}
