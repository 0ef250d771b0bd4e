/**
 * Issue 2, "Must show": "A corrupted or unreadable data file stops the process at start with a
 * clear error; it never silently starts empty."
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openEmbeddedEventStore } from '../../src/eventstore/embedded/index.js';
import { EventStoreUnavailableError } from '../../src/eventstore/types.js';
import { event } from './contract-fixtures.js';

describe('Embedded event store data file checks', () => {
  let dir: string;
  let path: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'es-corrupt-'));
    path = join(dir, 'events.db');
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function expectRefused(expectedReason: RegExp) {
    const error = await openEmbeddedEventStore({ path }).then(
      async (store) => {
        await store.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error, 'the store opened').to.be.instanceOf(EventStoreUnavailableError);
    expect((error as Error).message).to.contain(path);
    expect((error as Error).message).to.match(expectedReason);
  }

  /** A real store with enough history to span many pages, closed cleanly (no WAL left). */
  async function writeHistory(events = 400) {
    const store = await openEmbeddedEventStore({ path });
    const padding = 'x'.repeat(400);
    await Promise.all(
      Array.from({ length: events / 10 }, (_, i) =>
        store.appendToStream(
          `item-${i}`,
          Array.from({ length: 10 }, (_, n) => event('ItemVoted', { n, padding })),
        ),
      ),
    );
    await store.close();
  }

  describe('When the file holds garbage bytes', () => {
    it('refuses to open and leaves the file untouched', async () => {
      const garbage = randomBytes(64 * 1024);
      writeFileSync(path, garbage);
      await expectRefused(/not a SQLite database/);
      expect(readFileSync(path).equals(garbage)).to.equal(true);
    });
  });

  describe('When the file is empty (truncated to zero bytes)', () => {
    it('refuses to open instead of starting an empty log', async () => {
      writeFileSync(path, '');
      await expectRefused(/too short/);
      expect(statSync(path).size).to.equal(0);
    });
  });

  describe('When a real store file lost its tail', () => {
    it('refuses to open and says it is truncated', async () => {
      await writeHistory();
      const size = statSync(path).size;
      expect(size).to.be.greaterThan(64 * 1024);
      truncateSync(path, Math.floor(size / 2));
      await expectRefused(/truncated/);
    });
  });

  describe('When pages in the middle of a real store file are overwritten', () => {
    it('refuses to open (integrity check)', async () => {
      await writeHistory();
      const size = statSync(path).size;
      const fd = openSync(path, 'r+');
      try {
        writeSync(fd, randomBytes(16 * 1024), 0, 16 * 1024, Math.floor(size / 2 / 4096) * 4096);
      } finally {
        closeSync(fd);
      }
      await expectRefused(/integrity check|malformed|not a readable/);
    });
  });

  describe('When a directory stands where the file should be', () => {
    it('refuses to open', async () => {
      mkdirSync(path);
      await expectRefused(/is a directory/);
    });
  });

  describe('When the folder for the file does not exist', () => {
    it('refuses to open with the reason', async () => {
      path = join(dir, 'missing', 'events.db');
      await expectRefused(/cannot be created/);
    });
  });

  describe('When the file is a SQLite database with another event log schema version', () => {
    it('refuses to open', async () => {
      await writeHistory(10);
      const db = new Database(path);
      db.prepare("UPDATE es_meta SET value = '99' WHERE key = 'schema_version'").run();
      db.close();
      await expectRefused(/schema version 99/);
    });
  });

  describe('When the file is a SQLite database of another component without our tables', () => {
    it('adds the event log tables and keeps what was there', async () => {
      const db = new Database(path);
      db.exec("CREATE TABLE rs_docs (id TEXT PRIMARY KEY); INSERT INTO rs_docs VALUES ('kept')");
      db.close();
      const store = await openEmbeddedEventStore({ path });
      await store.appendToStream('a', [event('Happened')]);
      await store.close();
      const check = new Database(path, { readonly: true });
      expect(check.prepare('SELECT id FROM rs_docs').pluck().all()).to.deep.equal(['kept']);
      check.close();
    });
  });

  describe('When the file cannot be read for lack of permission', () => {
    it('refuses to open', async function () {
      if (process.getuid?.() === 0) this.skip(); // root reads anything: nothing to show
      await writeHistory(10);
      chmodSync(path, 0o000);
      try {
        await expectRefused(/cannot be|readonly|unable/);
      } finally {
        chmodSync(path, 0o600);
      }
    });
  });
});
