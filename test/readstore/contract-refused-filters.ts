/**
 * Contract: filters MongoDB's parser refuses before it matches anything (mongo
 * src/mongo/db/matcher/expression_parser.cpp, BadValue). Every way of reading or deleting refuses
 * them, whatever the collection holds: never a silent "matches nothing" or "matches everything".
 */
import { expect } from 'chai';
import {
  type Item,
  ITEMS,
  type OpenHarness,
  onlyWhereParsedLikeMongoDB,
  rejection,
  contractCases,
} from './contract-fixtures.js';

const LOGICAL = ['$or', '$and', '$nor'] as const;

export function refusedFilterContract(open: OpenHarness): void {
  contractCases(open, ({ harness, store, items }) => {
    /** Each filter is refused by find, countDocuments and deleteMany; nothing is deleted. */
    async function expectRefused(filters: Record<string, unknown>[]): Promise<void> {
      for (const filter of filters) {
        const what = JSON.stringify(filter);
        expect(await rejection(items().find(filter), what)).to.be.instanceOf(Error);
        expect(await rejection(items().countDocuments(filter), what)).to.be.instanceOf(Error);
        expect(await rejection(items().deleteMany(filter), what)).to.be.instanceOf(Error);
      }
      expect(await items().countDocuments()).to.equal(ITEMS.length);
    }

    for (const op of LOGICAL) {
      // MongoDB: "$or/$and/$nor entries need to be full objects" — refused, never read as "match all"
      it(`refuses a ${op} entry that is not a document, as MongoDB does`, async () => {
        for (const entry of [null, 5]) {
          const filter = { [op]: [{ status: 'open' }, entry] };
          expect(await rejection(items().find(filter))).to.be.instanceOf(Error);
          expect(await rejection(items().countDocuments(filter))).to.be.instanceOf(Error);
        }
      });

      // MongoDB: "$and/$or/$nor must be a nonempty array" (BadValue) — never "matches nothing"
      // ($or) or "matches everything" ($and, $nor), nested or beside an _id, on any collection
      it(`refuses an empty ${op}, deleting nothing, as MongoDB does`, async () => {
        const empty = store().collection<Item>('nothing-here');
        for (const filter of [
          { [op]: [] },
          { _id: 'a', [op]: [] },
          { $and: [{ workspaceId: 'w1' }, { [op]: [] }] },
        ]) {
          const what = JSON.stringify(filter);
          expect(await rejection(items().find(filter), what)).to.be.instanceOf(Error);
          expect(await rejection(items().countDocuments(filter), what)).to.be.instanceOf(Error);
          expect(await rejection(items().deleteMany(filter), what)).to.be.instanceOf(Error);
          expect(await rejection(empty.find(filter), what)).to.be.instanceOf(Error);
        }
        expect(await rejection(empty.find({ [op]: [null] }))).to.be.instanceOf(Error);
        expect(await items().countDocuments()).to.equal(ITEMS.length);
      });

      // MongoDB parses an $elemMatch whose first key is $and/$or/$nor as a query of its own
      // (parseElemMatch: "Children of these logical operators are initialized with field
      // names"), so the same "must be a nonempty array" holds there, under $not too
      it(`refuses an empty ${op} inside $elemMatch, as MongoDB does`, async () => {
        await expectRefused([
          { tags: { $elemMatch: { [op]: [] } } },
          { tags: { $elemMatch: { [op]: [{ $and: [] }] } } },
          { tags: { $elemMatch: { $and: [{ [op]: [] }] } } },
          { tags: { $not: { $elemMatch: { [op]: [] } } } },
          { $or: [{ tags: { $elemMatch: { [op]: [] } } }] },
        ]);
      });

      it(`refuses an empty ${op} inside $elemMatch when no document would reach it, as MongoDB does`, async function () {
        onlyWhereParsedLikeMongoDB(
          this,
          harness(),
          `it takes an empty ${op} in $elemMatch on no document`,
        );
        await expectRefused([{ _id: 'zz', tags: { $elemMatch: { [op]: [] } } }]);
      });

      // MongoDB: $and/$or/$nor are not operators on a field ("unknown operator: $or", BadValue
      // from parseSubField), nor inside a field's $not
      it(`refuses ${op} used as an operator on a field, as MongoDB does`, async () => {
        await expectRefused([
          { votes: { [op]: [{ $gt: 1 }] } },
          { votes: { $not: { [op]: [] } } },
          { votes: { $not: { [op]: [{ $gt: 1 }] } } },
        ]);
      });
    }

    // MongoDB refuses an operator it does not know when it parses the filter ("unknown operator:
    // $bogus", "unknown top level operator: $bogus", BadValue), so also where no document would
    // reach it: an emptied collection, or a filter pinned to an _id that is not there
    it('refuses an unknown operator whatever the collection holds, as MongoDB does', async () => {
      const unknown = [
        { votes: { $bogus: 1 } },
        { $bogus: 1 },
        { votes: { $gt: 1, $bogus: 1 } },
        { votes: { $not: { $bogus: 1 } } },
        { $or: [{ status: 'open' }, { votes: { $bogus: 1 } }] },
      ];
      await expectRefusedEverywhere(unknown);
    });

    it('refuses an unknown operator inside $elemMatch whatever the collection holds, as MongoDB does', async function () {
      onlyWhereParsedLikeMongoDB(this, harness(), 'it takes $elemMatch: {$bogus} on no document');
      await expectRefusedEverywhere([{ tags: { $elemMatch: { $bogus: 1 } } }]);
    });

    /** Refused on an emptied collection, by every way of reading or writing, and pinned to no _id. */
    async function expectRefusedEverywhere(unknown: Record<string, unknown>[]): Promise<void> {
      const emptied = store().collection<Item>('emptied');
      await emptied.insertOne({ ...ITEMS[0]! });
      await emptied.deleteOne({ _id: ITEMS[0]!._id });
      for (const filter of unknown) {
        const what = JSON.stringify(filter);
        expect(await rejection(emptied.find(filter), what)).to.be.instanceOf(Error);
        expect(await rejection(emptied.countDocuments(filter), what)).to.be.instanceOf(Error);
        expect(await rejection(emptied.deleteMany(filter), what)).to.be.instanceOf(Error);
        expect(
          await rejection(emptied.updateMany(filter, { $set: { votes: 1 } }), what),
        ).to.be.instanceOf(Error);
      }
      await expectRefused(unknown.map((filter) => ({ _id: 'zz', ...filter })));
    }

    // MongoDB: "$in needs an array", "$nin needs an array" (BadValue, parse time)
    it('refuses $in or $nin without an array, on any collection, as MongoDB does', async () => {
      await expectRefused([
        { status: { $in: 'open' } },
        { status: { $nin: 'open' } },
        { _id: 'zz', status: { $in: 'open' } },
        { tags: { $elemMatch: { $in: 'ui' } } },
      ]);
    });
  });
}
