/**
 * Contract: the positional `$` of an update path stands for the array item the query matched.
 * MongoDB's docs: "the positional $ operator acts as a placeholder for the first element that
 * matches the query document, and the array field must appear as part of the query document";
 * "When used with the $unset operator, the positional $ operator does not remove the matching
 * element from the array but rather sets it to null". With no such item — the query does not
 * match through the array, matches it only by a negation, or an upsert inserts — MongoDB refuses
 * the update: "The positional operator did not find the match needed from the query." (BadValue,
 * code 2; src/mongo/db/update/update_object_node.cpp, UpdateObjectNode::apply; jstests updatel.js:
 * "The collection is empty, forcing an upsert. In this case the query has no array position match
 * to substitute for the positional operator", SERVER-4713). The item is the
 * one a leaf of the query matched through (expression_path.h: setElemMatchKey of the array
 * offset); $or's branches are matched without recording one (OrMatchExpression::matches passes
 * no MatchDetails), nor is a negation or $size, which tests the array as a whole.
 */
import { expect } from 'chai';
import type { Collection } from '../../src/readstore/types.js';
import {
  type Item,
  type OpenHarness,
  onlyWhereParsedLikeMongoDB,
  rejection,
  updateContract,
} from './contract-fixtures.js';

const LINKS = [
  { id: 'a', n: 1 },
  { id: 'b', n: 2 },
  { id: 'c', n: 3 },
];

const NO_MATCH = 'The positional operator did not find the match needed from the query';

/** Gives items 'a' and 'b' the links, 'b''s in reverse order. */
async function withLinks(items: Collection<Item>): Promise<void> {
  await items.updateOne({ _id: 'a' }, { $set: { links: LINKS } });
  await items.updateOne({ _id: 'b' }, { $set: { links: [...LINKS].reverse() } });
}

async function linksOf(items: Collection<Item>, id: string): Promise<unknown> {
  return (await items.findOne({ _id: id }))?.links;
}

export function positionalContract(open: OpenHarness): void {
  updateContract(open, ({ items, harness }) => {
    describe('When the query matched an item of the array', () => {
      it('updates that item: by a field of the item, by $elemMatch, by the value itself', async () => {
        await withLinks(items());
        const byField = await items().updateOne(
          { _id: 'a', 'links.id': 'b' },
          { $set: { 'links.$.done': true } },
        );
        expect(byField).to.deep.equal({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
        await items().updateOne(
          { _id: 'a', links: { $elemMatch: { id: 'c', n: { $gte: 3 } } } },
          { $inc: { 'links.$.n': 10 } },
        );
        // tags is ['ui', 'bug']; a regular expression as the condition (jstests updatel.js)
        await items().updateOne({ _id: 'a', tags: 'bug' }, { $set: { 'tags.$': 'defect' } });
        await items().updateOne({ _id: 'a', 'links.id': /^a$/ }, { $set: { 'links.$.n': 0 } });
        expect(await items().findOne({ _id: 'a' })).to.deep.include({
          links: [
            { id: 'a', n: 0 },
            { id: 'b', n: 2, done: true },
            { id: 'c', n: 13 },
          ],
          tags: ['ui', 'defect'],
        });
      });

      it("updates each document's own matched item with updateMany", async () => {
        await withLinks(items());
        const result = await items().updateMany({ 'links.id': 'a' }, { $set: { 'links.$.n': 0 } });
        expect(result).to.deep.include({ matchedCount: 2, modifiedCount: 2 });
        expect(await linksOf(items(), 'a')).to.deep.equal([
          { id: 'a', n: 0 },
          { id: 'b', n: 2 },
          { id: 'c', n: 3 },
        ]);
        expect(await linksOf(items(), 'b')).to.deep.equal([
          { id: 'c', n: 3 },
          { id: 'b', n: 2 },
          { id: 'a', n: 0 },
        ]);
      });

      it('sets the item to null with $unset, keeping its place', async () => {
        await withLinks(items());
        await items().updateOne({ _id: 'a', 'links.n': { $gt: 1 } }, { $unset: { 'links.$': '' } });
        expect(await linksOf(items(), 'a')).to.deep.equal([LINKS[0], null, LINKS[2]]);
      });

      it('applies it in an upsert that finds its document', async () => {
        await withLinks(items());
        const result = await items().updateOne(
          { _id: 'a', 'links.id': 'c' },
          { $set: { 'links.$.done': true } },
          { upsert: true },
        );
        expect(result).to.deep.equal({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
        expect(await linksOf(items(), 'a')).to.deep.include({ id: 'c', n: 3, done: true });
      });
    });

    describe('When the query matched no item of the array', () => {
      const UNMATCHED = [
        { _id: 'a' },
        { _id: 'a', links: { $size: 3 } },
        { _id: 'a', $or: [{ 'links.id': 'b' }, { votes: 99 }] },
      ];
      /** MongoDB's docs: "If the query matches the array using a negation operator, such as $ne,
       * $not, or $nin, then you cannot use the positional operator to update values from this array" */
      const NEGATED = { _id: 'a', 'links.id': { $ne: 'zz' } };
      const upsertInserting = () =>
        items().updateOne(
          { _id: 'zz', 'links.id': 'b' },
          { $set: { 'links.$.done': true } },
          { upsert: true },
        );

      it('refuses the update, leaving the document unchanged', async () => {
        await withLinks(items());
        const before = await items().findOne({ _id: 'a' });
        for (const filter of UNMATCHED) {
          const what = JSON.stringify(filter);
          await rejection(items().updateOne(filter, { $set: { 'links.$.done': true } }), what);
        }
        expect(await items().findOne({ _id: 'a' })).to.deep.equal(before);
      });

      it('refuses an upsert that would insert, inserting nothing', async () => {
        await rejection(upsertInserting());
        expect(await items().findOne({ _id: 'zz' })).to.equal(null);
      });

      it("refuses it after a negation too, saying MongoDB's reason: the positional operator did not find the match", async function () {
        onlyWhereParsedLikeMongoDB(
          this,
          harness(),
          "its message is 'failed to locate …', and it takes a $ne's item",
        );
        await withLinks(items());
        const before = await items().findOne({ _id: 'a' });
        for (const filter of [...UNMATCHED, NEGATED]) {
          const what = JSON.stringify(filter);
          const error = await rejection(
            items().updateOne(filter, { $set: { 'links.$.done': true } }),
            what,
          );
          expect(error.message, what).to.include(NO_MATCH);
        }
        expect((await rejection(upsertInserting())).message).to.include(NO_MATCH);
        expect(await items().findOne({ _id: 'a' })).to.deep.equal(before);
      });
    });

    describe('When a positional path meets another path of the update', () => {
      // MongoDB merges 'links.$' with the path naming the item it stands for: "Update created a
      // conflict at 'links.1.n'" (ConflictingUpdateOperators, update_node.cpp)
      it('refuses it when both name the same field', async () => {
        await withLinks(items());
        const before = await items().findOne({ _id: 'a' });
        for (const update of [
          { $set: { 'links.$.n': 1, 'links.1.n': 2 } },
          { $set: { 'links.$.n': 1 }, $inc: { 'links.1.n': 2 } },
          { $set: { 'links.$': 1, 'links.1.n': 2 } },
        ]) {
          const what = JSON.stringify(update);
          const error = await rejection(items().updateOne({ _id: 'a', 'links.id': 'b' }, update));
          expect(error.message, what).to.include('conflict');
        }
        expect(await items().findOne({ _id: 'a' })).to.deep.equal(before);
      });

      it('merges them when they name two fields of the one item', async function () {
        onlyWhereParsedLikeMongoDB(this, harness(), "it refuses 'links.$.n' beside 'links.1.done'");
        await withLinks(items());
        await items().updateOne(
          { _id: 'a', 'links.id': 'b' },
          { $set: { 'links.$.n': 1, 'links.1.done': true } },
        );
        expect(await linksOf(items(), 'a')).to.deep.include({ id: 'b', n: 1, done: true });
      });
    });
  });
}
