/** Contract: reading one stream, reading `$all`, and the head position. */
import { expect } from 'chai';
import { event, events, ids, type OpenStore, prefix, useStore } from './contract-fixtures.js';

export function readContract(open: OpenStore): void {
  const store = useStore(open);

  async function streamOfFive() {
    const stream = `${prefix()}item-1`;
    await store().appendToStream(stream, events(5));
    return stream;
  }

  describe('When a stream is read', () => {
    it('returns every event forwards by default', async () => {
      const stream = await streamOfFive();
      const read = await store().readStream(stream);
      expect(read.map((e) => e.revision)).to.deep.equal([0, 1, 2, 3, 4]);
      expect(read.map((e) => (e.data as { n: number }).n)).to.deep.equal([0, 1, 2, 3, 4]);
    });

    it('reads backwards from the last event', async () => {
      const stream = await streamOfFive();
      const read = await store().readStream(stream, { direction: 'backwards' });
      expect(read.map((e) => e.revision)).to.deep.equal([4, 3, 2, 1, 0]);
    });

    it('starts forwards at fromRevision, inclusive, and stops at maxCount', async () => {
      const stream = await streamOfFive();
      const read = await store().readStream(stream, { fromRevision: 1, maxCount: 3 });
      expect(read.map((e) => e.revision)).to.deep.equal([1, 2, 3]);
    });

    it('starts backwards at fromRevision, inclusive, and stops at maxCount', async () => {
      const stream = await streamOfFive();
      const read = await store().readStream(stream, {
        direction: 'backwards',
        fromRevision: 3,
        maxCount: 2,
      });
      expect(read.map((e) => e.revision)).to.deep.equal([3, 2]);
    });

    it('returns nothing past the end', async () => {
      const stream = await streamOfFive();
      expect(await store().readStream(stream, { fromRevision: 5 })).to.deep.equal([]);
    });

    it('reads a missing stream as empty', async () => {
      expect(await store().readStream(`${prefix()}nobody`)).to.deep.equal([]);
      expect(
        await store().readStream(`${prefix()}nobody`, { direction: 'backwards' }),
      ).to.deep.equal([]);
    });

    it('does not mix in events of a stream whose name extends it', async () => {
      const p = prefix();
      await store().appendToStream(`${p}item-1`, events(1));
      await store().appendToStream(`${p}item-10`, events(2));
      expect(await store().readStream(`${p}item-1`)).to.have.length(1);
    });
  });

  describe('When $all is read', () => {
    it('returns events in commit order, equal to the order appends were acknowledged', async () => {
      const p = prefix();
      const head = await store().headPosition();
      const acknowledged: bigint[] = [];
      for (const stream of ['a', 'b', 'a', 'c', 'b']) {
        acknowledged.push(
          (await store().appendToStream(`${p}${stream}`, [event('Step')])).position,
        );
      }
      const all = await store().readAll({ after: head, filter: { streamPrefixes: [p] } });
      expect(all.map((e) => e.position)).to.deep.equal(acknowledged);
      expect(all.map((e) => e.streamId.slice(p.length))).to.deep.equal(['a', 'b', 'a', 'c', 'b']);
    });

    it('orders concurrent appends by position, each at the position its append reported', async () => {
      const p = prefix();
      const head = await store().headPosition();
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => store().appendToStream(`${p}s${i % 5}`, events(2))),
      );
      const all = await store().readAll({ after: head, filter: { streamPrefixes: [p] } });
      expect(all).to.have.length(60);
      for (let i = 1; i < all.length; i++)
        expect(all[i].position > all[i - 1].position).to.equal(true);
      const lastPositions = new Set(all.map((e) => e.position));
      for (const r of results) expect(lastPositions.has(r.position)).to.equal(true);
      // Within a stream, $all order and revision order agree.
      for (let s = 0; s < 5; s++) {
        const revisions = all.filter((e) => e.streamId === `${p}s${s}`).map((e) => e.revision);
        expect(revisions).to.deep.equal(Array.from({ length: 12 }, (_, i) => i));
      }
    });

    it('starts strictly after the given position and stops at maxCount', async () => {
      const p = prefix();
      const head = await store().headPosition();
      await store().appendToStream(`${p}a`, events(4));
      const all = await store().readAll({ after: head, filter: { streamPrefixes: [p] } });
      const rest = await store().readAll({
        after: all[1].position,
        maxCount: 1,
        filter: { streamPrefixes: [p] },
      });
      expect(ids(rest)).to.deep.equal([all[2].id]);
    });

    it('keeps only events matching a stream prefix or event type filter', async () => {
      const p = prefix();
      const head = await store().headPosition();
      await store().appendToStream(`${p}item-1`, [event('ItemCreated'), event('ItemVoted')]);
      await store().appendToStream(`${p}note-1`, [event('NoteCreated'), event('ItemVoted')]);
      const items = await store().readAll({
        after: head,
        filter: { streamPrefixes: [`${p}item-`] },
      });
      expect(items.map((e) => e.type)).to.deep.equal(['ItemCreated', 'ItemVoted']);
      const votes = await store().readAll({
        after: head,
        filter: { streamPrefixes: [p], eventTypes: ['ItemVoted', 'NoteCreated'] },
      });
      expect(votes.map((e) => `${e.streamId.slice(p.length)}:${e.type}`)).to.deep.equal([
        'item-1:ItemVoted',
        'note-1:NoteCreated',
        'note-1:ItemVoted',
      ]);
      const either = await store().readAll({
        after: head,
        filter: { streamPrefixes: [`${p}note-`, `${p}item-`] },
      });
      expect(either).to.have.length(4);
    });

    it('applies maxCount to matching events, not scanned ones', async () => {
      const p = prefix();
      const head = await store().headPosition();
      await store().appendToStream(`${p}noise`, events(30, 'Noise'));
      await store().appendToStream(`${p}wanted`, events(3, 'Wanted'));
      const read = await store().readAll({
        after: head,
        maxCount: 2,
        filter: { eventTypes: ['Wanted'] },
      });
      expect(read.map((e) => e.type)).to.deep.equal(['Wanted', 'Wanted']);
      expect(read.every((e) => e.streamId === `${p}wanted`)).to.equal(true);
    });
  });

  describe('When the head position is asked for', () => {
    it('is at least the position of the last acknowledged append, and nothing of ours lies beyond it', async () => {
      const p = prefix();
      const result = await store().appendToStream(`${p}a`, events(3));
      const head = await store().headPosition();
      expect(head >= result.position).to.equal(true);
      expect(await store().readAll({ after: head, filter: { streamPrefixes: [p] } })).to.deep.equal(
        [],
      );
    });
  });
}
