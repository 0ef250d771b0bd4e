/**
 * Several processes may open the same file (the admin CLI writes while the server runs). Each
 * embedded store keeps its (stream, revision) index in memory, so these tests check that the
 * in-memory indexes of two stores on one file stay sound. Two stores in one process stand in
 * for two processes: each has its own writer thread and SQLite connections, and nothing but the
 * file links them.
 * Issue 2: "unique (stream, revision)"; "concurrent appends to one stream — exactly one wins per
 * revision"; "wrong expected revision rejected with a typed error and nothing appended".
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import {
  type EmbeddedEventStore,
  openEmbeddedEventStore,
} from '../../src/eventstore/embedded/index.js';
import { verifyChain } from '../../src/eventstore/embedded/verify.js';
import { type NewEvent, WrongExpectedRevisionError } from '../../src/eventstore/types.js';
import { collect, events, rejection } from './contract-fixtures.js';

const withId = (list: NewEvent[]) => list.map((e) => ({ ...e, id: randomUUID() }));

describe('Embedded event store shared by two stores on one file', () => {
  let dir: string;
  let path: string;
  let first: EmbeddedEventStore;
  let second: EmbeddedEventStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'es-shared-'));
    path = join(dir, 'events.db');
    first = await openEmbeddedEventStore({ path });
    second = await openEmbeddedEventStore({ path });
  });
  afterEach(async () => {
    await Promise.all([first.close(), second.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  describe('When both append interleaved (issue 15: "each appended event carries a hash chaining it to the previous event of the log")', () => {
    it('keeps one intact chain across both writers', async () => {
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 === 0 ? first : second).appendToStream(`chained-${i % 5}`, events(1 + (i % 3))),
        ),
      );
      for (const store of [first, second]) {
        const report = await verifyChain(store);
        expect(report).to.include({ intact: true, events: 79 });
      }
      // chain-table.ts: "one row per range of the log", 32 bytes per row; each range stored once
      const db = new Database(path, { readonly: true });
      try {
        const ranges = db
          .prepare('SELECT first, last, length(hashes) AS bytes FROM es_chain ORDER BY first')
          .all() as { first: number; last: number; bytes: number }[];
        expect(ranges[0].first).to.equal(1);
        expect(ranges.at(-1)?.last).to.equal(79);
        for (const [i, range] of ranges.entries()) {
          expect(range.bytes).to.equal(32 * (range.last - range.first + 1));
          if (i > 0) expect(range.first).to.equal(ranges[i - 1].last + 1);
        }
      } finally {
        db.close();
      }
    });

    it("goes on when the other one sealed this one's newest rows (a `verify` while the service writes)", async () => {
      // chain-writer.ts: "Starts from the chain as stored, which another process (or a `verify`
      // run) may have moved."
      await first.appendToStream('sealed-by-other', events(3));
      expect(await second.sealChain()).to.equal(3n);
      await first.appendToStream('sealed-by-other', events(2));
      await second.appendToStream('sealed-by-other', events(1));
      await first.appendToStream('sealed-by-other', events(1));
      for (const store of [first, second]) {
        expect(await verifyChain(store)).to.include({ intact: true, events: 7 });
      }
    });
  });

  describe('When both append interleaved while each has a live subscription (recent-rows.ts)', () => {
    it('each subscription yields exactly the log, in position order, as it reads from the file', async () => {
      // recent-rows.ts: a subscription takes this process's own commits without reading them
      // back, and reads the file wherever the other store committed in between.
      const total = 3 * 40 + 2 * 40; // 3 events per append of `first`, 2 per append of `second`
      const fromFirst = first.subscribeToAll();
      const fromSecond = second.subscribeToAll();
      try {
        const seenByFirst = collect(fromFirst, (seen) => seen.length >= total);
        const seenBySecond = collect(fromSecond, (seen) => seen.length >= total);
        for (let round = 0; round < 8; round++) {
          const appends = Array.from({ length: 10 }, (_, i) => {
            const store = (round + i) % 2 === 0 ? first : second;
            return store.appendToStream(`live-${i % 4}`, events(store === first ? 3 : 2));
          });
          // from the second round on, one append names a revision its stream is past: it
          // fails inside a batch whose other appends commit
          const stale =
            round > 0
              ? first.appendToStream(`live-${round % 4}`, events(1), {
                  expectedRevision: 'no_stream',
                })
              : undefined;
          await Promise.all(appends);
          if (stale) expect(await rejection(stale)).to.be.instanceOf(WrongExpectedRevisionError);
        }
        const log = await first.readAll();
        expect(log).to.have.length(total);
        expect(await seenByFirst).to.deep.equal(log);
        expect(await seenBySecond).to.deep.equal(log);
      } finally {
        await Promise.all([fromFirst.close(), fromSecond.close()]);
      }
    });
  });

  describe('When a caller saw the head move (pollNow, src/platform/catch-up.ts)', () => {
    // types.ts: "if that is past what this process committed itself (another process appended),
    // live subscriptions look now instead of at their next poll"
    it('wakes subscriptions for the other store’s append, not again for this store’s own', async () => {
      const watcher = await openEmbeddedEventStore({ path, pollMs: 60_000 });
      const subscription = watcher.subscribeToAll();
      const iterator = subscription[Symbol.asyncIterator]();
      try {
        const own = await watcher.appendToStream('own', events(1));
        expect((await iterator.next()).value?.position).to.equal(own.position);
        const elsewhere = await second.appendToStream('elsewhere', events(1));
        const next = iterator.next();
        // its own head: nothing to look for (a look would find the other store's row)
        watcher.pollNow!(own.position);
        const early = await Promise.race([next, sleep(300).then(() => 'not woken' as const)]);
        expect(early).to.equal('not woken');
        watcher.pollNow!(elsewhere.position);
        expect((await next).value?.position).to.equal(elsewhere.position);
      } finally {
        await subscription.close();
        await watcher.close();
      }
    });
  });

  describe('When both append to one stream with the same expected revision, round after round', () => {
    it('exactly one wins per revision and the loser appends nothing', async () => {
      const rounds = 20;
      let expectedRevision: number | 'no_stream' = 'no_stream';
      const winners: string[] = [];
      for (let round = 0; round < rounds; round++) {
        const [a, b] = [withId(events(1)), withId(events(1))];
        const outcomes = await Promise.allSettled([
          first.appendToStream('contested', a, { expectedRevision }),
          second.appendToStream('contested', b, { expectedRevision }),
        ]);
        const won = outcomes.flatMap((o, i) =>
          o.status === 'fulfilled' ? [{ i, r: o.value }] : [],
        );
        const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
        expect(won, `round ${round}`).to.have.length(1);
        expect(lost[0]).to.be.instanceOf(WrongExpectedRevisionError);
        expect(won[0].r.nextExpectedRevision).to.equal(round);
        winners.push(won[0].i === 0 ? (a[0].id as string) : (b[0].id as string));
        expectedRevision = round;
      }
      for (const store of [first, second]) {
        const stream = await store.readStream('contested');
        expect(stream.map((e) => e.revision)).to.deep.equal([...Array(rounds).keys()]);
        expect(stream.map((e) => e.id)).to.deep.equal(winners);
      }
    });
  });

  describe('When both append to the same streams concurrently without expectations', () => {
    it('gives every event its own revision, contiguous, and $all in position order', async () => {
      const appends = Array.from({ length: 60 }, (_, i) =>
        (i % 2 === 0 ? first : second).appendToStream(`shared-${i % 3}`, events(1 + (i % 4))),
      );
      const results = await Promise.all(appends);
      const all = await first.readAll();
      expect(all).to.have.length(results.length + results.reduce((n, _, i) => n + (i % 4), 0));
      expect(all.map((e) => e.position)).to.deep.equal(
        [...all.map((e) => e.position)].sort((x, y) => (x < y ? -1 : 1)),
      );
      const keys = all.map((e) => `${e.streamId}@${e.revision}`);
      expect(new Set(keys).size, 'a (stream, revision) appears twice').to.equal(keys.length);
      let inStreams = 0;
      for (const streamId of ['shared-0', 'shared-1', 'shared-2']) {
        const fromFirst = await first.readStream(streamId);
        expect(fromFirst.map((e) => e.revision)).to.deep.equal([...fromFirst.keys()]);
        expect(await second.readStream(streamId)).to.deep.equal(fromFirst);
        inStreams += fromFirst.length;
      }
      expect(inStreams).to.equal(all.length);
    });
  });

  describe('When one store appends and the other reads and appends next', () => {
    it('the other sees the append at once and checks its expectation against it', async () => {
      const appended = await second.appendToStream('handover', events(3));
      const seen = await first.readStream('handover');
      expect(seen.map((e) => e.position)).to.have.length(3);
      expect(seen[2].position).to.equal(appended.position);
      expect(
        await first.readStream('handover', { direction: 'backwards', maxCount: 1 }),
      ).to.deep.equal([seen[2]]);

      const stale = await rejection(
        first.appendToStream('handover', events(1), { expectedRevision: 'no_stream' }),
      );
      expect(stale).to.be.instanceOf(WrongExpectedRevisionError);
      expect((stale as WrongExpectedRevisionError).actual).to.equal(2);
      const next = await first.appendToStream('handover', events(1), { expectedRevision: 2 });
      expect(next.nextExpectedRevision).to.equal(3);
      expect(await second.readStream('handover')).to.have.length(4);
    });
  });

  describe('When a store is reopened after the other appended while it was closed', () => {
    it('reads the appended events and continues their revisions', async () => {
      await first.appendToStream('resumed', events(1));
      await first.close();
      await second.appendToStream('resumed', events(2), { expectedRevision: 0 });
      first = await openEmbeddedEventStore({ path });
      expect((await first.readStream('resumed')).map((e) => e.revision)).to.deep.equal([0, 1, 2]);
      const stale = await rejection(
        first.appendToStream('resumed', events(1), { expectedRevision: 0 }),
      );
      expect(stale).to.be.instanceOf(WrongExpectedRevisionError);
      const next = await first.appendToStream('resumed', events(1), { expectedRevision: 2 });
      expect(next.nextExpectedRevision).to.equal(3);
    });
  });
});
