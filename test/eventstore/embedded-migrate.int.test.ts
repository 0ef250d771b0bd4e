/**
 * Schema version 1 files (UNIQUE (stream_id, revision) index in SQLite) are migrated to version 2
 * (index kept in memory) at open, with every row, position and revision unchanged.
 * DESIGN.md: "No data is lost on a crash after an acknowledged append."
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openEmbeddedEventStore } from '../../src/eventstore/embedded/index.js';
import { WrongExpectedRevisionError } from '../../src/eventstore/types.js';
import { events, rejection } from './contract-fixtures.js';

/** The version 1 schema exactly as the previous build created it. */
const VERSION_1_SQL = `
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

function writeVersion1File(path: string): void {
  const db = new Database(path);
  db.pragma('page_size = 1024');
  db.pragma('journal_mode = WAL');
  db.exec(VERSION_1_SQL);
  const insert = db.prepare(
    'INSERT INTO es_events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const metadata = JSON.stringify({ actor: 'person-1', via: 'pat:test', occurredAt: 1 });
  db.transaction(() => {
    for (let n = 0; n < 30; n++) {
      insert.run(`item-${n % 3}`, Math.floor(n / 3), `id-${n}`, 'Voted', `{"n":${n}}`, metadata);
    }
  })();
  db.close();
}

describe('Embedded event store schema migration', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'es-migrate-'));
    path = join(dir, 'events.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('When a version 1 file is opened', () => {
    it('keeps every row and position, drops the SQLite index and continues revisions', async () => {
      writeVersion1File(path);
      const store = await openEmbeddedEventStore({ path });
      try {
        const all = await store.readAll();
        expect(all.map((e) => e.id)).to.deep.equal(Array.from({ length: 30 }, (_, n) => `id-${n}`));
        expect(all.map((e) => e.position)).to.deep.equal(
          Array.from({ length: 30 }, (_, n) => BigInt(n + 1)),
        );
        const stream = await store.readStream('item-1');
        expect(stream.map((e) => e.revision)).to.deep.equal([...Array(10).keys()]);
        expect(stream.map((e) => e.data)).to.deep.equal(
          Array.from({ length: 10 }, (_, r) => ({ n: 3 * r + 1 })),
        );
        const stale = await rejection(
          store.appendToStream('item-1', events(1), { expectedRevision: 8 }),
        );
        expect(stale).to.be.instanceOf(WrongExpectedRevisionError);
        const next = await store.appendToStream('item-1', events(1), { expectedRevision: 9 });
        expect(next).to.deep.equal({ nextExpectedRevision: 10, position: 31n });
      } finally {
        await store.close();
      }
      const check = new Database(path, { readonly: true });
      try {
        expect(
          check.prepare("SELECT value FROM es_meta WHERE key = 'schema_version'").pluck().get(),
        ).to.equal('2');
        const indexes = check
          .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'es_events'")
          .pluck()
          .all();
        expect(indexes).to.deep.equal([]);
      } finally {
        check.close();
      }
    });
  });
});
