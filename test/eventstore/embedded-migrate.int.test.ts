/**
 * Schema version 1 files (UNIQUE (stream_id, revision) index in SQLite), version 2 files (no
 * hash chain) and version 3 files (a hash in every row) are migrated to version 4 (index kept in
 * memory, every row chained in es_chain) at open, with every row, position and revision unchanged.
 * DESIGN.md: "No data is lost on a crash after an acknowledged append."
 * Issue 15: "existing data files must migrate".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openEmbeddedEventStore } from '../../src/eventstore/embedded/index.js';
import { verifyChain } from '../../src/eventstore/embedded/verify.js';
import { WrongExpectedRevisionError } from '../../src/eventstore/types.js';
import { events, rejection } from './contract-fixtures.js';
import { VERSION_1_SQL, VERSION_2_SQL, VERSION_3_SQL, writeOldFile } from './old-schema-files.js';

/** The migrated file as another connection reads it. */
function migrated(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    const started = db
      .prepare("SELECT value FROM es_meta WHERE key = 'chain_started'")
      .pluck()
      .get() as string | undefined;
    return {
      version: db.prepare("SELECT value FROM es_meta WHERE key = 'schema_version'").pluck().get(),
      indexes: db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'es_events'")
        .pluck()
        .all(),
      columns: (db.pragma('table_info(es_events)') as { name: string }[]).map((c) => c.name),
      chainStarted: started === undefined ? undefined : JSON.parse(started),
    };
  } finally {
    db.close();
  }
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
      writeOldFile(path, VERSION_1_SQL);
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
      expect(migrated(path)).to.deep.include({ version: '4', indexes: [] });
    });
  });

  describe('When a version 3 file (a hash in every row) is opened', () => {
    it('moves every hash into es_chain unchanged, drops the column and chains new appends on', async () => {
      const head = writeOldFile(path, VERSION_3_SQL, true);
      const store = await openEmbeddedEventStore({ path });
      try {
        const stored = await store.readStored(29n, 1);
        expect(stored[0]).to.include({ position: 30n, hash: head });
        await store.appendToStream('item-0', events(2), { expectedRevision: 9 });
        expect(await verifyChain(store)).to.include({
          intact: true,
          events: 32,
          headPosition: 32n,
        });
      } finally {
        await store.close();
      }
      const file = migrated(path);
      expect(file.version).to.equal('4');
      expect(file.columns).to.not.include('hash');
    });
  });

  describe('When a version 2 file (no hash chain) is opened', () => {
    it('chains every existing row, records where the chain started, and chains new appends on', async () => {
      writeOldFile(path, VERSION_2_SQL);
      const store = await openEmbeddedEventStore({ path });
      try {
        await store.appendToStream('item-0', events(2), { expectedRevision: 9 });
        const report = await verifyChain(store);
        expect(report).to.include({ intact: true, events: 32, headPosition: 32n });
        const stored = await store.readStored(0n, 100);
        expect(stored.map((r) => r.data).slice(0, 3)).to.deep.equal([
          '{"n":0}',
          '{"n":1}',
          '{"n":2}',
        ]);
      } finally {
        await store.close();
      }
      expect(migrated(path).chainStarted).to.include({
        migratedFromVersion: 2,
        rowsChainedAtMigration: 30,
        lastPositionAtMigration: 30,
      });
    });
  });
});
