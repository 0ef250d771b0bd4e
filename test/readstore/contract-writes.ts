/** Contract: inserts, unique keys, updates with upsert and operators, deletes, the guard. */
import { expect } from 'chai';
import { guardedUpdate, insertOnce } from '../../projections/shared/guard.js';
import { DuplicateKeyError } from '../../src/readstore/types.js';
import {
  type Item,
  ITEMS,
  type OpenHarness,
  rejection,
  sortedIds,
  contractCases,
} from './contract-fixtures.js';

interface Person {
  _id: string;
  email: string;
  workspaceId: string;
  [key: string]: unknown;
}

export function writeContract(open: OpenHarness): void {
  contractCases(open, ({ store, items }) => {
    const people = () => store().collection<Person>('people');

    describe('When inserting a duplicate _id', () => {
      it('rejects it with DuplicateKeyError and keeps the first document', async () => {
        const error = await rejection(
          items().insertOne({ ...(await items().findOne({ _id: 'a' }))!, votes: 99 }),
        );
        expect(error).to.be.instanceOf(DuplicateKeyError);
        expect((await items().findOne({ _id: 'a' }))?.votes).to.equal(5);
      });
    });

    describe('When a unique index is declared', () => {
      beforeEach(async () => {
        const name = await people().createIndex({
          keys: { workspaceId: 1, email: 1 },
          unique: true,
        });
        expect(name).to.be.a('string');
        await people().insertOne({ _id: 'p1', workspaceId: 'w1', email: 'ann@x.io' });
      });

      it('rejects an insert with the same key', async () => {
        const error = await rejection(
          people().insertOne({ _id: 'p2', workspaceId: 'w1', email: 'ann@x.io' }),
        );
        expect(error).to.be.instanceOf(DuplicateKeyError);
        expect(await people().countDocuments()).to.equal(1);
      });

      it('accepts the same email in another workspace', async () => {
        await people().insertOne({ _id: 'p2', workspaceId: 'w2', email: 'ann@x.io' });
        expect(await people().countDocuments()).to.equal(2);
      });

      it('rejects an update or upsert that would collide, leaving documents unchanged', async () => {
        await people().insertOne({ _id: 'p2', workspaceId: 'w1', email: 'bob@x.io' });
        const updating = await rejection(
          people().updateOne({ _id: 'p2' }, { $set: { email: 'ann@x.io' } }),
        );
        expect(updating).to.be.instanceOf(DuplicateKeyError);
        const upserting = await rejection(
          people().updateOne(
            { _id: 'p3' },
            { $set: { workspaceId: 'w1', email: 'ann@x.io' } },
            { upsert: true },
          ),
        );
        expect(upserting).to.be.instanceOf(DuplicateKeyError);
        expect((await people().findOne({ _id: 'p2' }))?.email).to.equal('bob@x.io');
        expect(await people().findOne({ _id: 'p3' })).to.equal(null);
      });

      it('frees the key when its owner changes it', async () => {
        await people().updateOne({ _id: 'p1' }, { $set: { email: 'new@x.io' } });
        await people().insertOne({ _id: 'p2', workspaceId: 'w1', email: 'ann@x.io' });
        expect(await people().countDocuments({ email: 'ann@x.io' })).to.equal(1);
      });

      it('is idempotent to declare again', async () => {
        await people().createIndex({ keys: { workspaceId: 1, email: 1 }, unique: true });
      });
    });

    describe('When updating one document', () => {
      it('applies $set, $inc, $push, $addToSet, $pull and $unset together', async () => {
        const result = await items().updateOne(
          { _id: 'a' },
          {
            $set: { status: 'planned', 'author.name': 'Annie' },
            $inc: { votes: 2 },
            $push: { history: 'planned' },
            $addToSet: { tags: { $each: ['ui', 'new'] } },
            $unset: { 'author.email': '' },
          },
        );
        expect(result).to.deep.equal({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
        await items().updateOne({ _id: 'a' }, { $pull: { tags: 'bug' } });
        expect(await items().findOne({ _id: 'a' })).to.deep.equal({
          _id: 'a',
          workspaceId: 'w1',
          status: 'planned',
          votes: 7,
          tags: ['ui', 'new'],
          author: { name: 'Annie' },
          history: ['planned'],
        });
      });

      it('reports no modification when nothing changes', async () => {
        const result = await items().updateOne(
          { _id: 'a' },
          { $set: { status: 'open' }, $addToSet: { tags: 'ui' } },
        );
        expect(result).to.deep.equal({ matchedCount: 1, modifiedCount: 0, upsertedCount: 0 });
      });

      it('keeps the maximum with $max and the minimum with $min', async () => {
        await items().updateOne(
          { _id: 'a' },
          { $max: { votes: 3 }, $min: { closedAt: '2024-01-01' } },
        );
        await items().updateOne({ _id: 'a' }, { $min: { closedAt: '2025-01-01' } });
        const doc = await items().findOne({ _id: 'a' });
        expect(doc).to.deep.include({ votes: 5, closedAt: '2024-01-01' });
      });

      // MongoDB: $min/$max of an equal value change nothing; $push keeps repeated items, even
      // when it creates the array, where $addToSet keeps one
      it('counts an equal $min or $max as no change, and $push keeps repeats when it creates the array', async () => {
        for (const update of [{ $min: { votes: 5 } }, { $max: { votes: 5 } }]) {
          const result = await items().updateOne({ _id: 'a' }, update);
          expect(result).to.deep.equal({ matchedCount: 1, modifiedCount: 0, upsertedCount: 0 });
        }
        await items().updateOne(
          { _id: 'a' },
          { $push: { seen: { $each: ['x', 'x'] } }, $addToSet: { kept: { $each: ['y', 'y'] } } },
        );
        expect(await items().findOne({ _id: 'a' })).to.deep.include({
          seen: ['x', 'x'],
          kept: ['y'],
        });
      });

      // MongoDB: $push's $slice modifier keeps the last n of the grown array; a positional '$'
      // with no array in the query is refused ("The positional operator did not find the match")
      it('applies $push with $each and $slice, and refuses a positional $ with no array matched', async () => {
        await items().updateOne(
          { _id: 'a' },
          { $push: { history: { $each: ['one', 'two', 'three'], $slice: -2 } } },
        );
        expect(await items().findOne({ _id: 'a' })).to.deep.include({ history: ['two', 'three'] });
        const before = await items().findOne({ _id: 'a' });
        const positional = { $set: { 'author.$': 'x' } };
        expect(await rejection(items().updateOne({ _id: 'a' }, positional))).to.be.instanceOf(
          Error,
        );
        expect(await items().findOne({ _id: 'a' })).to.deep.equal(before);
      });

      // MongoDB: "$inc ... accepts positive and negative values"; a non-number is refused
      it('refuses $inc by a non-number, leaving the document unchanged', async () => {
        for (const update of [{ $inc: { votes: '1' } }, { $inc: { fresh: '1' } }]) {
          expect(await rejection(items().updateOne({ _id: 'a' }, update))).to.be.instanceOf(Error);
        }
        expect(await items().findOne({ _id: 'a' })).to.deep.equal(ITEMS[0]);
      });

      it('does nothing without upsert when nothing matches', async () => {
        const result = await items().updateOne({ _id: 'nope' }, { $set: { votes: 1 } });
        expect(result).to.deep.equal({ matchedCount: 0, modifiedCount: 0, upsertedCount: 0 });
        expect(await items().countDocuments()).to.equal(5);
      });

      it('upserts from the filter equality fields plus the update', async () => {
        const result = await items().updateOne(
          { _id: 'n', workspaceId: 'w9' },
          { $set: { status: 'open' }, $inc: { votes: 1 }, $push: { tags: 'fresh' } },
          { upsert: true },
        );
        expect(result).to.deep.equal({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1 });
        expect(await items().findOne({ _id: 'n' })).to.deep.equal({
          _id: 'n',
          workspaceId: 'w9',
          status: 'open',
          votes: 1,
          tags: ['fresh'],
        });
      });
    });

    // MongoDB: "If an update operation with upsert: true results in an update of an existing
    // document, $setOnInsert does nothing", also beside an operator only mingo applies ($mul)
    describe('When an upsert with $setOnInsert meets an existing document', () => {
      it('applies the other operators and leaves the $setOnInsert fields out', async () => {
        const result = await items().updateOne(
          { _id: 'a' },
          { $setOnInsert: { status: 'new', firstSeen: 1 }, $mul: { votes: 2 } },
          { upsert: true },
        );
        expect(result).to.include({ matchedCount: 1, upsertedCount: 0 });
        const doc = await items().findOne({ _id: 'a' });
        expect(doc).to.include({ status: 'open', votes: 10 });
        expect(doc).not.to.have.property('firstSeen');
      });

      it('makes no parent of a $setOnInsert path, and does not walk one through a number', async () => {
        const result = await items().updateOne(
          { _id: 'a' },
          { $setOnInsert: { 'first.seen': 1, 'votes.first': 1 }, $set: { status: 'planned' } },
          { upsert: true },
        );
        expect(result).to.deep.equal({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
        expect(await items().findOne({ _id: 'a' })).to.deep.equal({
          ...ITEMS[0],
          status: 'planned',
        });
      });

      it('inserts them when nothing matches', async () => {
        await items().updateOne(
          { _id: 'n' },
          { $setOnInsert: { status: 'new' }, $mul: { votes: 2 } },
          { upsert: true },
        );
        expect(await items().findOne({ _id: 'n' })).to.deep.equal({
          _id: 'n',
          status: 'new',
          votes: 0,
        });
      });
    });

    describe('When replacing a document', () => {
      it('replaces the whole document, keeping its _id', async () => {
        const replacement = {
          _id: 'b',
          workspaceId: 'w1',
          status: 'done',
          votes: 0,
          tags: [],
          author: { name: 'B' },
        } as Item;
        const result = await items().replaceOne({ _id: 'b' }, replacement);
        expect(result).to.deep.equal({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
        expect(await items().findOne({ _id: 'b' })).to.deep.equal(replacement);
      });

      it('inserts with upsert when nothing matches', async () => {
        const doc = {
          _id: 'z',
          workspaceId: 'w1',
          status: 'open',
          votes: 3,
          tags: [],
          author: { name: 'Z' },
        } as Item;
        const result = await items().replaceOne({ _id: 'z' }, doc, { upsert: true });
        expect(result.upsertedCount).to.equal(1);
        expect(await items().findOne({ _id: 'z' })).to.deep.equal(doc);
      });
    });

    describe('When updating many documents', () => {
      it('updates every match and counts them', async () => {
        const result = await items().updateMany(
          { workspaceId: 'w2' },
          { $set: { status: 'done' }, $inc: { votes: 1 } },
        );
        expect(result).to.deep.equal({ matchedCount: 2, modifiedCount: 2, upsertedCount: 0 });
        expect(sortedIds(await items().find({ status: 'done' }))).to.deep.equal(['c', 'd', 'e']);
        expect((await items().findOne({ _id: 'e' }))?.votes).to.equal(1);
      });
    });

    describe('When deleting', () => {
      it('deleteOne removes one match and deleteMany all of them', async () => {
        expect(await items().deleteOne({ workspaceId: 'w1' })).to.deep.equal({ deletedCount: 1 });
        expect(await items().countDocuments({ workspaceId: 'w1' })).to.equal(2);
        expect(await items().deleteMany({ workspaceId: 'w1' })).to.deep.equal({ deletedCount: 2 });
        expect(await items().deleteMany({ workspaceId: 'w1' })).to.deep.equal({ deletedCount: 0 });
        expect(sortedIds(await items().find({}))).to.deep.equal(['d', 'e']);
      });
    });

    describe('When a guarded projector update runs twice', () => {
      // DESIGN.md: "Projectors are idempotent (a revision or position guard on every update; a
      // 'runs twice' test each)".
      it('changes nothing the second time', async () => {
        const update = {
          $set: { status: 'planned' },
          $inc: { votes: 1 },
          $push: { history: 'e7' },
        };
        expect(await guardedUpdate(items(), 'a', 7n, update)).to.equal(true);
        const once = await items().findOne({ _id: 'a' });
        expect(await guardedUpdate(items(), 'a', 7n, update)).to.equal(false);
        expect(await items().findOne({ _id: 'a' })).to.deep.equal(once);
        expect(once).to.deep.include({ votes: 6, history: ['e7'] });
      });

      it('upserts once and treats the replayed upsert as applied', async () => {
        const update = { $set: { workspaceId: 'w5' }, $inc: { votes: 1 } };
        expect(await guardedUpdate(items(), 'new', 3n, update, { upsert: true })).to.equal(true);
        const once = await items().findOne({ _id: 'new' });
        expect(await guardedUpdate(items(), 'new', 3n, update, { upsert: true })).to.equal(false);
        expect(await guardedUpdate(items(), 'new', 2n, update, { upsert: true })).to.equal(false);
        expect(await items().findOne({ _id: 'new' })).to.deep.equal(once);
        expect(once?.votes).to.equal(1);
      });

      it('insertOnce inserts once', async () => {
        const doc = {
          _id: 'once',
          workspaceId: 'w1',
          status: 'open',
          votes: 0,
          tags: [],
          author: { name: 'O' },
        } as Item;
        expect(await insertOnce(items(), doc, 4n)).to.equal(true);
        expect(await insertOnce(items(), { ...doc, votes: 9 }, 4n)).to.equal(false);
        expect((await items().findOne({ _id: 'once' }))?.votes).to.equal(0);
      });
    });
  });
}
