/**
 * Where and when the embedded log's hash chain is stored (chain-writer.ts): "A batch's hashes
 * are computed after its appends were acknowledged and stored by the writer's NEXT transaction,
 * as its first insert; when no transaction follows within CHAIN_SEAL_MS, by one of their own",
 * and "a writer that opens a log whose last rows are not chained ... chains them at once".
 * Issue 15: "each appended event carries a hash chaining it to the previous event of the log
 * (SHA-256 over the previous hash and the event's bytes, computed in the writer so it costs
 * little)"; `verify` "prints either "N events, chain intact" or the first position where it
 * breaks".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { CHAIN_SEAL_MS } from '../../src/eventstore/embedded/chain-writer.js';
import {
  type EmbeddedEventStore,
  openEmbeddedEventStore,
} from '../../src/eventstore/embedded/index.js';
import { verifyChain } from '../../src/eventstore/embedded/verify.js';
import { events } from './contract-fixtures.js';

/** es_chain's ranges as [first, last], read over a connection of the test's own. */
function ranges(path: string): [number, number][] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT first, last FROM es_chain ORDER BY first').raw().all() as [
      number,
      number,
    ][];
  } finally {
    db.close();
  }
}

function edit(path: string, sql: string): void {
  const db = new Database(path);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

describe('Embedded event store hash chain storage', () => {
  let dir: string;
  let path: string;
  let store: EmbeddedEventStore | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'es-chain-'));
    path = join(dir, 'events.db');
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  describe('When batches follow each other', () => {
    it("stores each batch's chain, one range, with the transaction after it", async () => {
      store = await openEmbeddedEventStore({ path });
      await store.appendToStream('first', events(3));
      await store.appendToStream('second', events(2));
      // acknowledged after its commit, so the first batch's range is in the file by now
      expect(ranges(path)[0]).to.deep.equal([1, 3]);
      await store.appendToStream('third', events(1));
      expect(ranges(path).slice(0, 2)).to.deep.equal([
        [1, 3],
        [4, 5],
      ]);
    });
  });

  describe('When writes pause', () => {
    it("stores the last batch's chain by itself, CHAIN_SEAL_MS after it", async () => {
      store = await openEmbeddedEventStore({ path });
      await store.appendToStream('only', events(4));
      const deadline = Date.now() + 20 * CHAIN_SEAL_MS;
      while (Date.now() < deadline && ranges(path).length === 0) {
        await new Promise((resolve) => setTimeout(resolve, CHAIN_SEAL_MS / 4));
      }
      expect(ranges(path)).to.deep.equal([[1, 4]]);
    });
  });

  describe('When a log is opened whose last rows are not chained (a crash before their seal)', () => {
    it('chains them from the file before it accepts appends, to the same hashes', async () => {
      store = await openEmbeddedEventStore({ path });
      await store.appendToStream('a', events(2));
      await store.appendToStream('b', events(3));
      const before = await verifyChain(store);
      await store.close();
      store = undefined;
      edit(path, 'DELETE FROM es_chain WHERE first > 2');
      expect(ranges(path)).to.deep.equal([[1, 2]]);

      store = await openEmbeddedEventStore({ path });
      expect(ranges(path)).to.deep.equal([
        [1, 2],
        [3, 5],
      ]);
      expect(await verifyChain(store)).to.deep.equal(before);
    });
  });

  describe('When a range in the middle of the chain was removed or changed', () => {
    it('verify names the first position it held', async () => {
      store = await openEmbeddedEventStore({ path });
      for (const stream of ['a', 'b', 'c']) await store.appendToStream(stream, events(2));
      await store.close();
      store = undefined;

      edit(path, 'DELETE FROM es_chain WHERE first = 3');
      store = await openEmbeddedEventStore({ path });
      expect(await verifyChain(store)).to.deep.include({
        intact: false,
        events: 2,
        brokenAt: 3n,
        reason: 'the row has no hash',
      });
      await store.close();
      store = undefined;

      edit(path, 'INSERT INTO es_chain (first, last, hashes) VALUES (3, 4, zeroblob(64))');
      store = await openEmbeddedEventStore({ path });
      expect(await verifyChain(store)).to.deep.include({ intact: false, events: 2, brokenAt: 3n });
    });
  });
});
