/** Contract: reading with MongoDB filters, sort, skip, limit, projection, counts, aggregation. */
import { expect } from 'chai';
import {
  type Item,
  ITEMS,
  type OpenHarness,
  ids,
  sortedIds,
  contractCases,
} from './contract-fixtures.js';

export function queryContract(open: OpenHarness): void {
  contractCases(open, ({ items }) => {
    describe('When filtering', () => {
      const cases: [string, Record<string, unknown>, string[]][] = [
        ['plain equality', { workspaceId: 'w1' }, ['a', 'b', 'c']],
        ['$eq', { status: { $eq: 'open' } }, ['a', 'd', 'e']],
        ['$ne', { status: { $ne: 'open' } }, ['b', 'c']],
        ['$in', { status: { $in: ['planned', 'done'] } }, ['b', 'c']],
        ['$nin', { status: { $nin: ['open', 'done'] } }, ['b']],
        ['$gt and $lt together', { votes: { $gt: 1, $lt: 12 } }, ['a', 'd']],
        ['$gte and $lte', { votes: { $gte: 1, $lte: 5 } }, ['a', 'c']],
        ['$exists true', { closedAt: { $exists: true } }, ['c']],
        ['$exists false', { closedAt: { $exists: false } }, ['a', 'b', 'd', 'e']],
        ['$or', { $or: [{ votes: { $gt: 10 } }, { status: 'done' }] }, ['b', 'c']],
        [
          '$and with $or',
          { $and: [{ workspaceId: 'w2' }, { $or: [{ votes: 0 }, { votes: 7 }] }] },
          ['d', 'e'],
        ],
        ['a nested field', { 'author.name': 'Ann' }, ['a', 'd']],
        ['a missing nested field', { 'author.email': { $exists: false } }, ['b', 'c', 'd', 'e']],
        ['array membership', { tags: 'ui' }, ['a', 'd']],
        ['array membership with $in', { tags: { $in: ['api', 'bug'] } }, ['a', 'b', 'e']],
        ['null matching a missing field', { closedAt: null }, ['a', 'b', 'd', 'e']],
        // the MongoDB client leaves out a field set to undefined (ignoreUndefined, mongodb/client.ts)
        [
          'a field set to undefined, as if absent',
          { closedAt: undefined },
          ITEMS.map((i) => i._id),
        ],
        [
          'undefined beside an equality',
          { workspaceId: 'w1', closedAt: undefined },
          ['a', 'b', 'c'],
        ],
        ['undefined in a $or branch', { $or: [{ status: 'done', votes: undefined }] }, ['c']],
        ['several fields at once', { workspaceId: 'w1', status: 'open' }, ['a']],
        ['_id', { _id: 'c' }, ['c']],
        ['_id with $in', { _id: { $in: ['e', 'a', 'zz'] } }, ['a', 'e']],
        ['an operator mingo evaluates ($size)', { tags: { $size: 2 } }, ['a']],
        // MongoDB: a document operand is an exact match on the embedded document, {} included
        ['an embedded document ({} matches only {})', { author: {} }, []],
        ['$ne of an embedded document', { author: { $ne: { name: 'Ann' } } }, ['a', 'b', 'c', 'e']],
        [
          'a native and a mingo operator on one field',
          { votes: { $gte: 1, $mod: [2, 1] } },
          ['a', 'c', 'd'],
        ],
      ];
      for (const [what, filter, expected] of cases) {
        it(`finds by ${what}`, async () => {
          expect(sortedIds(await items().find(filter))).to.deep.equal(expected);
          expect(await items().countDocuments(filter)).to.equal(expected.length);
        });
      }

      it('returns null from findOne when nothing matches', async () => {
        expect(await items().findOne({ workspaceId: 'nope' })).to.equal(null);
      });
    });

    describe('When sorting, skipping, limiting and projecting', () => {
      it('sorts descending and ascending on several keys', async () => {
        expect(ids(await items().find({}, { sort: { votes: -1 } }))).to.deep.equal([
          'b',
          'd',
          'a',
          'c',
          'e',
        ]);
        expect(ids(await items().find({}, { sort: { workspaceId: 1, votes: 1 } }))).to.deep.equal([
          'c',
          'a',
          'b',
          'e',
          'd',
        ]);
      });

      it('applies skip and limit after the sort', async () => {
        const page = await items().find({}, { sort: { votes: -1 }, skip: 1, limit: 2 });
        expect(ids(page)).to.deep.equal(['d', 'a']);
      });

      it('findOne returns the first document of the sort', async () => {
        const top = await items().findOne({ workspaceId: 'w1' }, { sort: { votes: -1 } });
        expect(top?._id).to.equal('b');
      });

      it('includes only projected fields (and _id unless excluded)', async () => {
        const [doc] = await items().find(
          { _id: 'a' },
          { projection: { status: 1, 'author.name': 1 } },
        );
        expect(doc).to.deep.equal({ _id: 'a', status: 'open', author: { name: 'Ann' } });
        const [bare] = await items().find({ _id: 'a' }, { projection: { votes: 1, _id: 0 } });
        expect(bare).to.deep.equal({ votes: 5 });
      });

      it('excludes fields with a 0 projection', async () => {
        const doc = await items().findOne({ _id: 'b' }, { projection: { tags: 0, author: 0 } });
        expect(doc).to.deep.equal({ _id: 'b', workspaceId: 'w1', status: 'planned', votes: 12 });
      });
    });

    describe('When counting and aggregating', () => {
      it('counts everything without a filter', async () => {
        expect(await items().countDocuments()).to.equal(ITEMS.length);
      });

      it('counts per group with $group', async () => {
        const rows = await items().aggregate<{ _id: string; count: number }>([
          { $match: { workspaceId: 'w1' } },
          { $group: { _id: '$status', count: { $sum: 1 } } },
          { $sort: { _id: 1 } },
        ]);
        expect(rows).to.deep.equal([
          { _id: 'done', count: 1 },
          { _id: 'open', count: 1 },
          { _id: 'planned', count: 1 },
        ]);
      });

      it('sums over all documents', async () => {
        const [row] = await items().aggregate<{ total: number }>([
          { $group: { _id: null, total: { $sum: '$votes' } } },
        ]);
        expect(row?.total).to.equal(25);
      });

      it('does not change stored documents through pipeline stages', async () => {
        await items().aggregate([{ $addFields: { votes: 999 } }]);
        expect((await items().findOne({ _id: 'a' }))?.votes).to.equal(5);
      });
    });

    describe('When a caller mutates documents it handed in or got back', () => {
      it('keeps the stored state unchanged', async () => {
        const input: Item = {
          _id: 'm',
          workspaceId: 'w3',
          status: 'open',
          votes: 1,
          tags: ['x'],
          author: { name: 'M' },
        };
        await items().insertOne(input);
        input.tags.push('mutated');
        input.author.name = 'changed';
        const found = await items().findOne({ _id: 'm' });
        expect(found?.tags).to.deep.equal(['x']);
        // A returned document is a value: an adapter may hand out copies (MongoDB) or frozen
        // shared documents (embedded, where a change attempt throws); either way nothing leaks.
        const attempt = (change: () => void) => {
          try {
            change();
          } catch (error) {
            expect(error).to.be.instanceOf(TypeError);
          }
        };
        attempt(() => found!.tags.push('again'));
        attempt(() => {
          (found!.author as { name: string }).name = 'again';
        });
        const [listed] = await items().find({ _id: 'm' });
        expect(listed).to.deep.include({ tags: ['x'], author: { name: 'M' } });
      });
    });
  });
}
