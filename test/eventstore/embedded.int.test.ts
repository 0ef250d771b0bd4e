import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openEmbeddedEventStore } from '../../src/eventstore/embedded/index.js';
import { eventStoreContract } from './contract.js';
import { events } from './contract-fixtures.js';

async function openTemporary() {
  const dir = mkdtempSync(join(tmpdir(), 'es-embedded-'));
  const store = await openEmbeddedEventStore({ path: join(dir, 'events.db') });
  return {
    store,
    dir,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

eventStoreContract('embedded (SQLite file)', openTemporary);

describe('Embedded event store', () => {
  describe('When the store is new', () => {
    it('reports head position 0 and an empty $all', async () => {
      const { store, cleanup } = await openTemporary();
      try {
        expect(await store.headPosition()).to.equal(0n);
        expect(await store.readAll()).to.deep.equal([]);
      } finally {
        await cleanup();
      }
    });
  });

  describe('When the store is closed and reopened', () => {
    it('keeps every acknowledged event, positions and revisions included', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'es-embedded-'));
      const path = join(dir, 'events.db');
      try {
        const first = await openEmbeddedEventStore({ path });
        await Promise.all([
          first.appendToStream('a', events(3)),
          first.appendToStream('b', events(2)),
        ]);
        const before = await first.readAll();
        await first.close();
        const second = await openEmbeddedEventStore({ path });
        try {
          expect(await second.readAll()).to.deep.equal(before);
          const next = await second.appendToStream('a', events(1), { expectedRevision: 2 });
          expect(next.position).to.equal(6n);
        } finally {
          await second.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('When another process appends to the same file', () => {
    it('a live subscription sees the append through the slow poll', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'es-embedded-'));
      const path = join(dir, 'events.db');
      // Two stores on one file stand in for two processes: no in-process signal links them.
      const watcher = await openEmbeddedEventStore({ path, pollMs: 50 });
      const other = await openEmbeddedEventStore({ path });
      const subscription = watcher.subscribeToAll();
      try {
        await other.appendToStream('elsewhere', events(1));
        const iterator = subscription[Symbol.asyncIterator]();
        const next = await iterator.next();
        expect(next.done).to.equal(false);
        expect(next.value?.streamId).to.equal('elsewhere');
      } finally {
        await subscription.close();
        await other.close();
        await watcher.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('When one append of a batch fails inside SQLite', () => {
    it('adds nothing for it and still commits its neighbours', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'es-embedded-'));
      const path = join(dir, 'events.db');
      await (await openEmbeddedEventStore({ path })).close();
      // Fault injection: SQLite refuses one event type, as it would an oversized value.
      const db = new Database(path);
      db.exec(`CREATE TRIGGER poison BEFORE INSERT ON es_events WHEN NEW.type = 'Poison'
               BEGIN SELECT RAISE(ABORT, 'poisoned'); END`);
      db.close();
      const store = await openEmbeddedEventStore({ path });
      try {
        // Issued together, so they share one batch (one transaction).
        const outcomes = await Promise.allSettled([
          store.appendToStream('before', events(2)),
          store.appendToStream('poisoned', [...events(1), ...events(1, 'Poison')]),
          store.appendToStream('after', events(1)),
        ]);
        expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
        expect((outcomes[1] as PromiseRejectedResult).reason.message).to.contain('poisoned');
        const all = await store.readAll();
        expect(all.map((e) => `${e.streamId}@${e.revision}`)).to.deep.equal([
          'before@0',
          'before@1',
          'after@0',
        ]);
        expect(await store.readStream('poisoned')).to.deep.equal([]);
        const next = await store.appendToStream('poisoned', events(1), {
          expectedRevision: 'no_stream',
        });
        expect(next.nextExpectedRevision).to.equal(0);
      } finally {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('When appends are made after close', () => {
    it('rejects them with EventStoreUnavailableError', async () => {
      const { store, cleanup } = await openTemporary();
      await cleanup();
      const error = await store.appendToStream('a', events(1)).catch((e: unknown) => e);
      expect((error as Error).name).to.equal('EventStoreUnavailableError');
    });
  });
});
