/** Contract: flush makes documents and checkpoints durable together; drops and rebuild support. */
import { expect } from 'chai';
import {
  type Item,
  ITEMS,
  type OpenHarness,
  sortedIds,
  contractCases,
} from './contract-fixtures.js';

export function persistenceContract(open: OpenHarness): void {
  contractCases(open, ({ harness, store }) => {
    describe('When flushed with checkpoints and reopened', () => {
      it('has the same documents, indexes and checkpoints', async () => {
        await store()
          .collection('people')
          .createIndex({ keys: { email: 1 }, unique: true });
        await store().collection('people').insertOne({ _id: 'p1', email: 'a@x.io' });
        await store()
          .collection<Item>('items')
          .updateOne({ _id: 'a' }, { $inc: { votes: 1 } });
        await store().collection('items').deleteOne({ _id: 'e' });
        await store().flush(
          new Map([
            ['items', 41n],
            ['big', 2n ** 64n + 5n],
          ]),
        );
        const reopened = await harness().reopen();
        expect(await reopened.checkpoints()).to.deep.equal(
          new Map([
            ['items', 41n],
            ['big', 2n ** 64n + 5n],
          ]),
        );
        const docs = await reopened.collection<Item>('items').find({}, { sort: { _id: 1 } });
        expect(sortedIds(docs)).to.deep.equal(['a', 'b', 'c', 'd']);
        expect(docs[0]).to.deep.equal({ ...ITEMS[0], votes: 6 });
        expect(docs[1]).to.deep.equal(ITEMS[1]);
        // The unique index survived the restart.
        const again = await reopened
          .collection('people')
          .insertOne({ _id: 'p2', email: 'a@x.io' })
          .catch((e) => e);
        expect(again?.name).to.equal('DuplicateKeyError');
      });

      it('replaces a checkpoint on the next flush and forgets a deleted one', async () => {
        await store().flush(
          new Map([
            ['a', 1n],
            ['b', 2n],
          ]),
        );
        await store().deleteCheckpoint('a');
        expect(await store().checkpoints()).to.deep.equal(new Map([['b', 2n]]));
        await store().flush(new Map([['b', 3n]]));
        const reopened = await harness().reopen();
        expect(await reopened.checkpoints()).to.deep.equal(new Map([['b', 3n]]));
      });
    });

    describe('When a flush carries a checkpoint behind the stored one', () => {
      // src/readstore/types.ts, `flush`: "A checkpoint only moves forward: one given behind the
      // stored one leaves it as it is" (a projector paused past its lease wakes with older ones)
      it('keeps the stored one, across a restart too; a deleted one starts over', async () => {
        await store().flush(
          new Map([
            ['a', 100n],
            ['b', 2n ** 64n + 5n],
          ]),
        );
        await store().flush(
          new Map([
            ['a', 99n],
            ['b', 9n],
          ]),
        );
        const stored = async (from = store()) => Object.fromEntries(await from.checkpoints());
        const kept = { a: 100n, b: 2n ** 64n + 5n };
        expect(await stored()).to.deep.equal(kept);
        expect(await stored(await harness().reopen()), 'reopened').to.deep.equal(kept);
        await store().flush(new Map([['a', 101n]]));
        await store().deleteCheckpoint('b');
        await store().flush(new Map([['b', 3n]])); // a rebuild replays from the start
        expect(await stored(await harness().reopen())).to.deep.equal({ a: 101n, b: 3n });
      });
    });

    describe('When writes were not flushed before a restart', () => {
      it('they are not on disk: the stored checkpoint still matches the stored documents', async function () {
        if (!harness().flushMakesDurable) this.skip(); // MongoDB: every acknowledged write is durable
        await store().flush(new Map([['items', 10n]]));
        await store()
          .collection<Item>('items')
          .updateOne({ _id: 'a' }, { $set: { status: 'done' } });
        await store().collection('items').insertOne({ _id: 'late' });
        await store().dropCollection('items');
        await store().deleteCheckpoint('items');
        const reopened = await harness().reopen();
        expect(await reopened.checkpoints()).to.deep.equal(new Map([['items', 10n]]));
        expect(await reopened.collection('items').countDocuments()).to.equal(ITEMS.length);
        expect((await reopened.collection<Item>('items').findOne({ _id: 'a' }))?.status).to.equal(
          'open',
        );
      });
    });

    describe('When a collection is dropped (a projection rebuild)', () => {
      it('is empty at once, accepts new documents, and stays dropped after flush and reopen', async () => {
        await store()
          .collection('items')
          .createIndex({ keys: { votes: 1 }, unique: true, name: 'votes' });
        await store().flush(new Map([['items', 5n]]));
        await store().dropCollection('items');
        await store().deleteCheckpoint('items');
        const items = store().collection<Item>('items');
        expect(await items.countDocuments()).to.equal(0);
        // The unique index went with the collection: equal votes are fine now.
        await items.insertOne({ ...ITEMS[0]!, _id: 'r1' });
        await items.insertOne({ ...ITEMS[0]!, _id: 'r2' });
        await store().flush(new Map([['items', 1n]]));
        const reopened = await harness().reopen();
        expect(sortedIds(await reopened.collection('items').find({}))).to.deep.equal(['r1', 'r2']);
        expect(await reopened.checkpoints()).to.deep.equal(new Map([['items', 1n]]));
      });

      it('dropping a collection that never existed is harmless', async () => {
        await store().dropCollection('never-created');
        expect(await store().collection('never-created').countDocuments()).to.equal(0);
      });
    });
  });
}
