/**
 * Event log files as older builds wrote them (schema versions 1, 2 and 3), for the migration
 * tests to open with this build.
 */
import Database from 'better-sqlite3';
import { chainHash, GENESIS } from '../../src/eventstore/embedded/chain.js';

/** The version 1 schema exactly as the previous build created it. */
export const VERSION_1_SQL = `
CREATE TABLE es_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE es_events (
  position  INTEGER PRIMARY KEY,
  stream_id TEXT    NOT NULL,
  revision  INTEGER NOT NULL,
  event_id  TEXT    NOT NULL,
  type      TEXT    NOT NULL,
  data      TEXT    NOT NULL,
  metadata  TEXT    NOT NULL,
  UNIQUE (stream_id, revision)
) STRICT;
INSERT INTO es_meta (key, value) VALUES ('schema_version', '1');
`;

/**
 * A file of an older version with 30 rows over three streams, as that build wrote them;
 * `hashed`: each row carries its chain hash (version 3). Returns the last row's hash.
 */
export function writeOldFile(path: string, sql: string, hashed = false): string {
  const db = new Database(path);
  db.pragma('page_size = 1024');
  db.pragma('journal_mode = WAL');
  db.exec(sql);
  const insert = db.prepare(
    hashed
      ? 'INSERT INTO es_events (stream_id, revision, event_id, type, data, metadata, hash) VALUES (?, ?, ?, ?, ?, ?, unhex(?))'
      : 'INSERT INTO es_events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const metadata = JSON.stringify({ actor: 'person-1', via: 'pat:test', occurredAt: 1 });
  let previous = GENESIS;
  db.transaction(() => {
    for (let n = 0; n < 30; n++) {
      const row = {
        streamId: `item-${n % 3}`,
        revision: Math.floor(n / 3),
        eventId: `id-${n}`,
        type: 'Voted',
        data: `{"n":${n}}`,
        metadata,
      };
      previous = chainHash(previous, row);
      const values = [row.streamId, row.revision, row.eventId, row.type, row.data, metadata];
      insert.run(...(hashed ? [...values, previous] : values));
    }
  })();
  db.close();
  return previous;
}

/** The version 2 schema exactly as the previous build created it. */
export const VERSION_2_SQL = `
CREATE TABLE es_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE es_events (
  position  INTEGER PRIMARY KEY,
  stream_id TEXT    NOT NULL,
  revision  INTEGER NOT NULL,
  event_id  TEXT    NOT NULL,
  type      TEXT    NOT NULL,
  data      TEXT    NOT NULL,
  metadata  TEXT    NOT NULL
) STRICT;
INSERT INTO es_meta (key, value) VALUES ('schema_version', '2');
`;

/** The version 3 schema exactly as the previous build created it: each row carries its hash. */
export const VERSION_3_SQL = VERSION_2_SQL.replace(
  'metadata  TEXT    NOT NULL\n) STRICT;',
  'metadata  TEXT    NOT NULL,\n  hash      BLOB    NOT NULL\n) STRICT;',
).replace("'schema_version', '2'", "'schema_version', '3'");
