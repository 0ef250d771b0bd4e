/**
 * Contract: operands MongoDB's parser refuses when it parses the query, before it matches
 * anything — so on an emptied collection too, and in a $match that is not an aggregation's first
 * stage (MongoDB parses the whole pipeline before it runs). mongo
 * src/mongo/db/matcher/expression_parser.cpp (BadValue, code 2): "$size needs a number",
 * "$size must be a whole number", "$size may not be negative" (parseSize); "$regex has to be a
 * string" (parseRegexElement); "Unknown type name alias: nosuch", "Invalid numerical type code:
 * 99" (parseType); "malformed mod, needs to be an array", "malformed mod, not enough elements",
 * "malformed mod, too many elements", "malformed mod, divisor not a number", "divisor cannot be
 * 0" (parseMOD, ModMatchExpression). src/mongo/db/pipeline/expression.cpp (InvalidPipelineOperator,
 * code 168): "Unrecognized expression '$nosuch'", also nested in another expression.
 */
import { expect } from 'chai';
import type { Collection } from '../../src/readstore/types.js';
import {
  contractCases,
  type Item,
  ITEMS,
  type OpenHarness,
  onlyWhereParsedLikeMongoDB,
  rejection,
} from './contract-fixtures.js';

const MALFORMED_OPERANDS: Record<string, unknown>[] = [
  { tags: { $size: 1.5 } },
  { tags: { $size: -1 } },
  { tags: { $size: '1' } },
  { tags: { $not: { $size: -1 } } },
  { status: { $regex: 5 } },
  // "Regular expression is invalid: missing closing parenthesis" (code 51091)
  { status: { $regex: '(' } },
  { status: { $type: 'nosuch' } },
  { status: { $type: 99 } },
  { status: { $type: ['string', 'nosuch'] } },
  { votes: { $mod: [0, 1] } },
  { votes: { $mod: [2] } },
  { votes: { $mod: [2, 1, 0] } },
  { votes: { $mod: 'x' } },
  { votes: { $mod: ['2', 1] } },
  { $or: [{ status: 'open' }, { votes: { $mod: [0, 1] } }] },
];

const UNKNOWN_EXPRESSIONS: Record<string, unknown>[] = [
  { $expr: { $nosuch: 1 } },
  { $expr: { $and: [true, { $nosuch: '$votes' }] } },
  { $expr: { $gt: ['$votes', { $add: [1, { $nosuch: 1 }] }] } },
  { $or: [{ status: 'open' }, { $expr: { $nosuch: 1 } }] },
];

export function refusedOperandContract(open: OpenHarness): void {
  contractCases(open, ({ store, items, harness }) => {
    /** A collection that held a document and holds none now: no document reaches a filter. */
    async function emptiedCollection(): Promise<Collection<Item>> {
      const emptied = store().collection<Item>('emptied');
      await emptied.insertOne({ ...ITEMS[0]! });
      await emptied.deleteOne({ _id: ITEMS[0]!._id });
      return emptied;
    }

    /** Each filter is refused on the seeded items and on an emptied collection, nothing deleted. */
    async function expectRefusedEverywhere(filters: Record<string, unknown>[]): Promise<void> {
      const emptied = await emptiedCollection();
      for (const filter of filters) {
        const what = JSON.stringify(filter);
        for (const collection of [items(), emptied]) {
          expect(await rejection(collection.find(filter), what)).to.be.instanceOf(Error);
          expect(await rejection(collection.countDocuments(filter), what)).to.be.instanceOf(Error);
          expect(await rejection(collection.deleteMany(filter), what)).to.be.instanceOf(Error);
          const update = collection.updateMany(filter, { $set: { votes: 1 } });
          expect(await rejection(update, what)).to.be.instanceOf(Error);
        }
      }
      expect(await items().countDocuments()).to.equal(ITEMS.length);
    }

    it('refuses a malformed $size, $regex, $type or $mod operand whatever the collection holds, as MongoDB does', async () => {
      await expectRefusedEverywhere(MALFORMED_OPERANDS);
    });

    it('refuses an $expr naming an expression MongoDB does not know, whatever the collection holds', async function () {
      onlyWhereParsedLikeMongoDB(this, harness(), 'it takes $expr: {$nosuch} on no document');
      await expectRefusedEverywhere(UNKNOWN_EXPRESSIONS);
      await expectRefusedAsLaterStage(UNKNOWN_EXPRESSIONS);
    });

    it('takes the well-formed operands beside them', async () => {
      const counts = [];
      for (const filter of [
        { tags: { $size: 1 } },
        { status: { $regex: '^o' } },
        { status: { $type: ['string', 16] } },
        { votes: { $mod: [5, 0] } },
        { $expr: { $gt: ['$votes', { $add: [1, 5] }] } },
      ]) {
        counts.push(await items().countDocuments(filter));
      }
      expect(counts).to.deep.equal([3, 3, 5, 2, 2]);
    });

    it('refuses a $match it would refuse first when it is a later stage of an aggregation', async () => {
      await expectRefusedAsLaterStage([{ $or: [] }, ...MALFORMED_OPERANDS]);
    });

    /** Each filter as the $match after a $sort, on the seeded items and on an emptied collection. */
    async function expectRefusedAsLaterStage(matches: Record<string, unknown>[]): Promise<void> {
      const emptied = await emptiedCollection();
      for (const match of matches) {
        const pipeline = [{ $sort: { votes: 1 } }, { $match: match }, { $count: 'n' }];
        const what = JSON.stringify(match);
        expect(await rejection(items().aggregate(pipeline), what)).to.be.instanceOf(Error);
        expect(await rejection(emptied.aggregate(pipeline), what)).to.be.instanceOf(Error);
      }
    }
  });
}
