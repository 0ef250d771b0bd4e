/**
 * The read-store contract on the embedded adapter (mingo over memory, persisted to a temporary
 * SQLite file), plus what only the embedded adapter promises: a damaged file stops the start.
 * Issue 2, "Must show": "A corrupted or unreadable data file stops the process at start with a
 * clear error; it never silently starts empty."
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { InvalidFilterError, InvalidUpdateError } from '../../src/readstore/embedded/errors.js';
import { openEmbeddedReadStore } from '../../src/readstore/embedded/index.js';
import { type ReadStore, ReadStoreUnavailableError } from '../../src/readstore/types.js';
import { readStoreContract } from './contract.js';
import { rejection } from './contract-fixtures.js';

readStoreContract('embedded', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'readstore-'));
  const path = join(dir, 'store.sqlite');
  let current: ReadStore = await openEmbeddedReadStore({ path });
  return {
    get store() {
      return current;
    },
    flushMakesDurable: true,
    parsesLikeMongoDB: true,
    async reopen() {
      await current.close();
      current = await openEmbeddedReadStore({ path });
      return current;
    },
    async cleanup() {
      await current.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('Embedded read store: damaged files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readstore-corrupt-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('When the file is not a SQLite database', () => {
    it('refuses to open with ReadStoreUnavailableError naming the file', async () => {
      const path = join(dir, 'store.sqlite');
      writeFileSync(path, Buffer.from('this is not a database, just garbage bytes '.repeat(200)));
      const error = await rejection(openEmbeddedReadStore({ path }));
      expect(error).to.be.instanceOf(ReadStoreUnavailableError);
      expect(error.message).to.include(path).and.to.include('refusing to start');
    });
  });

  describe('When a stored document is not valid JSON', () => {
    it('refuses to open instead of starting with a partial read model', async () => {
      const path = join(dir, 'store.sqlite');
      const store = await openEmbeddedReadStore({ path });
      await store.collection('items').insertOne({ _id: 'a' });
      await store.flush();
      await store.close();
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(path);
      db.prepare("UPDATE rm_docs SET json = '{broken' WHERE id = 'a'").run();
      db.close();
      const error = await rejection(openEmbeddedReadStore({ path }));
      expect(error).to.be.instanceOf(ReadStoreUnavailableError);
    });
  });

  describe('When the path is a directory', () => {
    it('refuses to open with ReadStoreUnavailableError', async () => {
      const error = await rejection(openEmbeddedReadStore({ path: dir }));
      expect(error).to.be.instanceOf(ReadStoreUnavailableError);
    });
  });
});

describe('Embedded read store: filters and updates MongoDB refuses', () => {
  let dir: string;
  let store: ReadStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'readstore-filters-'));
    store = await openEmbeddedReadStore({ path: join(dir, 'store.sqlite') });
    await store.collection('items').insertOne({ _id: 'a', status: 'open', tags: ['ui'] });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // errors.ts: what MongoDB refuses surfaces as one typed error, never a different answer;
  // MongoDB: "$and/$or/$nor must be a nonempty array", "unknown operator: $nope" (BadValue)
  describe('When a filter has an empty $or or an operator mingo does not know', () => {
    it('refuses it with InvalidFilterError', async () => {
      const items = store.collection('items');
      for (const filter of [
        { $or: [] },
        { $nor: [] },
        { status: { $nope: 1 } },
        { tags: { $elemMatch: { $or: [] } } },
        { status: { $not: { $or: [] } } },
        // mingo would fail on it with a TypeError, and only once a document reaches it
        { status: { $in: 'open' } },
      ]) {
        expect(await rejection(items.find(filter)), JSON.stringify(filter)).to.be.instanceOf(
          InvalidFilterError,
        );
      }
    });
  });

  // MongoDB: "Updating the path 'status' would create a conflict at 'status'" (code 40), "Cannot
  // apply $pull to a non-array value", PathNotViable through $[], TypeMismatch for $mul
  describe('When an update has conflicting paths or meets a value of the wrong type', () => {
    it('refuses it with InvalidUpdateError', async () => {
      const items = store.collection('items');
      for (const update of [
        { $set: { status: 'done' }, $unset: { status: '' } },
        { $pull: { status: 'open' } },
        { $set: { 'tags.$[].x': 1 } },
        { $mul: { status: 2 } },
      ]) {
        expect(
          await rejection(items.updateOne({ _id: 'a' }, update), JSON.stringify(update)),
        ).to.be.instanceOf(InvalidUpdateError);
      }
    });
  });
});
