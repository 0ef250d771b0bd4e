/**
 * Contract: an update path through a value that is not a document (a number, a string, a null,
 * an array read by field name). MongoDB calls such a path not viable and refuses it for every
 * operator but $unset (PathNotViable, code 28: "Cannot create field 'x' in element {votes: 5}";
 * $pull, $pullAll, $pop and $rename refuse it too although they create nothing:
 * mongo src/mongo/db/update/update_leaf_node.cpp, rename_node.cpp). $unset of such a path does
 * nothing ("If the field does not exist, then $unset does nothing", unset_node.h:
 * allowNonViablePath). Also: `$[]` walked into every item, and paths of one update that conflict.
 */
import { expect } from 'chai';
import {
  onlyWhereParsedLikeMongoDB,
  type OpenHarness,
  rejection,
  updateContract,
} from './contract-fixtures.js';

export function updatePathContract(open: OpenHarness): void {
  updateContract(open, ({ harness, items, expectRefused }) => {
    describe('When an operator that writes meets a number, a string or a null on its path', () => {
      // never a silent no-op, never a document put over the value
      it('refuses the update, leaving the document unchanged', async () => {
        await expectRefused([
          { $set: { 'votes.x': 1 } },
          { $inc: { 'status.count': 1 } },
          { $push: { 'closedAt.days': 1 } },
          { $set: { 'closedAt.day': 1 } },
          { $mul: { 'votes.x': 2 } },
          { $min: { 'status.x': 1 } },
          { $currentDate: { 'votes.at': true } },
          { $bit: { 'votes.x': { and: 1 } } },
          // beside an operator only mingo applies, the native ones are refused as well
          { $max: { 'closedAt.x': 1 }, $mul: { votes: 2 } },
          { $inc: { 'status.count': 1 }, $mul: { votes: 2 } },
        ]);
      });
    });

    describe('When the path reads an array by field name, or runs through an array item that is a value', () => {
      it('refuses the update, leaving the document unchanged', async () => {
        // tags is ['ui', 'bug']
        await expectRefused([{ $addToSet: { 'tags.x': 1 } }, { $set: { 'tags.0.x': 1 } }]);
      });
    });

    describe('When $pull, $pullAll, $pop or $rename cannot walk their path', () => {
      it('refuses the update although they create nothing, leaving the document unchanged', async () => {
        await expectRefused([
          { $pull: { 'votes.x': 1 } },
          { $pullAll: { 'votes.x': [1] } },
          { $pop: { 'status.x': 1 } },
          { $rename: { 'votes.x': 'moved' } },
          // the source exists: its value would be written where it cannot be
          { $rename: { status: 'votes.x' } },
        ]);
      });
    });

    // MongoDB: each item of `$[]` is walked as a field part would be, so an item that is a value
    // blocks the rest of the path (PathNotViable: "Cannot create field 'x' in element {0: \"ui\"}");
    // `$[]` itself needs an array that is there ("Cannot apply array updates to non-array element",
    // "The path 'gone' must exist in the document in order to apply array updates", BadValue,
    // update_array_node.cpp). The positional `$` needs a matched item that is a document alike.
    describe('When an all-items path ($[]) or a positional one ($) runs through items that are values', () => {
      it('refuses the update, leaving the document unchanged', async () => {
        // tags is ['ui', 'bug']
        await expectRefused([
          { $set: { 'tags.$[].x': 1 } },
          { $inc: { 'tags.$[].count': 1 } },
          { $pull: { 'tags.$[].x': 1 } },
          { $push: { 'tags.$[]': 1 } },
          { $set: { 'votes.$[].x': 1 } },
          { $set: { 'votes.$[]': 1 } },
          { $set: { 'gone.$[].x': 1 } },
          { $set: { 'votes.x.$[].y': 1 } },
        ]);
        const before = await items().findOne({ _id: 'a' });
        const positional = await rejection(
          items().updateOne({ _id: 'a', tags: 'ui' }, { $set: { 'tags.$.x': 1 } }),
        );
        expect(positional).to.be.instanceOf(Error);
        expect(await items().findOne({ _id: 'a' })).to.deep.equal(before);
      });

      // $unset too: the array `$[]` names must be there (update_object_node.cpp applyChild
      // reaches the array node whatever the operator)
      it('refuses $unset through $[] of an array that is not there, or of a number', async function () {
        onlyWhereParsedLikeMongoDB(this, harness(), 'it takes $unset of gone.$[].x and votes.$[]');
        await expectRefused([{ $unset: { 'gone.$[].x': '' } }, { $unset: { 'votes.$[]': '' } }]);
      });

      it('applies $[] over items that are documents', async () => {
        await items().updateOne({ _id: 'a' }, { $set: { links: [{ n: 1 }, { n: 2 }] } });
        await items().updateOne({ _id: 'a' }, { $inc: { 'links.$[].n': 10 } });
        expect((await items().findOne({ _id: 'a' }))?.links).to.deep.equal([{ n: 11 }, { n: 12 }]);
      });
    });

    // MongoDB: "Updating the path 'a.b' would create a conflict at 'a'" (ConflictingUpdateOperators,
    // code 40, mongo src/mongo/db/update/update_object_node.cpp parseAndMerge): no two paths of one
    // update may be equal or one inside the other, across operators or within one, a $rename's
    // source and destination included (conflict_placeholder_node.h). It is refused when the
    // update is parsed: whatever the document holds, and when nothing matches too.
    describe('When two paths of one update are the same, or one lies inside the other', () => {
      const conflicting = [
        { $set: { fresh: 5 }, $pull: { 'fresh.b': 1 } },
        { $set: { votes: 1 }, $inc: { votes: 1 } },
        { $set: { 'fresh.x': 2, fresh: 1 } },
        { $set: { 'author.name': 'X' }, $unset: { author: '' } },
        { $push: { tags: 'x' }, $pull: { tags: 'ui' } },
        { $rename: { votes: 'score' }, $set: { score: 1 } },
        { $rename: { votes: 'score' }, $inc: { votes: 1 } },
        // one path makes 'tags' an array node ($[]), the other a document node
        { $set: { 'tags.1': 'x', 'tags.$[]': 'y' } },
      ];

      it('refuses the update, leaving the document unchanged', async () => {
        await expectRefused(conflicting);
      });

      it('refuses a $setOnInsert beside a $set of the same path, also when not inserting', async function () {
        onlyWhereParsedLikeMongoDB(this, harness(), 'it applies the $set and ignores the conflict');
        await expectRefused([{ $setOnInsert: { votes: 1 }, $set: { votes: 2 } }]);
      });

      it('refuses it when no document matches, upserting or not', async function () {
        onlyWhereParsedLikeMongoDB(
          this,
          harness(),
          'it parses an update only when a document matches',
        );
        for (const update of conflicting) {
          const what = JSON.stringify(update);
          const missing = { _id: 'zz' };
          expect(await rejection(items().updateOne(missing, update), what)).to.be.instanceOf(Error);
          expect(await rejection(items().updateMany(missing, update), what)).to.be.instanceOf(
            Error,
          );
          const upsert = items().updateOne(missing, update, { upsert: true });
          expect(await rejection(upsert, what)).to.be.instanceOf(Error);
        }
        expect(await items().findOne({ _id: 'zz' })).to.equal(null);
      });

      it('applies paths that merely share a beginning (author.name and authorName)', async () => {
        const result = await items().updateOne(
          { _id: 'a' },
          {
            $set: { 'author.name': 'N', 'author.email': 'n@x.io', authorName: 'N' },
            $inc: { votes: 1 },
          },
        );
        expect(result.modifiedCount).to.equal(1);
        expect(await items().findOne({ _id: 'a' })).to.deep.include({
          author: { name: 'N', email: 'n@x.io' },
          authorName: 'N',
          votes: 6,
        });
      });
    });

    // MongoDB refuses these paths when it parses the update (BadValue; update_object_node.cpp
    // parseAndMerge, field_checker.cpp isUpdatable): "No array filter found for identifier 't'"
    // (this port passes no arrayFilters), "Cannot have positional (i.e. '$') element in the first
    // position", "Too many positional (i.e. '$') elements found", "The 'to' field for $rename must
    // be a string", "An empty update path is not valid", "... contains an empty field name"
    describe('When a path is malformed', () => {
      it('refuses the update whether or not a document matches', async () => {
        for (const update of [
          { $set: { 'tags.$[t]': 1 } },
          { $set: { '$.x': 1 } },
          { $set: { '$[].x': 1 } },
          { $set: { 'tags.$.x.$': 1 } },
          { $rename: { votes: 5 } },
          { $set: { 'author..name': 1 } },
          { $set: { '': 1 } },
        ]) {
          const what = JSON.stringify(update);
          for (const filter of [{ _id: 'a' }, { _id: 'zz' }]) {
            expect(await rejection(items().updateOne(filter, update), what)).to.be.instanceOf(
              Error,
            );
          }
        }
        expect(await items().findOne({ _id: 'a' })).to.deep.include({
          votes: 5,
          tags: ['ui', 'bug'],
        });
      });
    });

    describe('When $unset meets a number, a string, a null or an array on its path', () => {
      /** $unset `paths` on item 'a': nothing changes and nothing is reported modified */
      async function expectNoOp(paths: Record<string, ''>): Promise<void> {
        const before = await items().findOne({ _id: 'a' });
        const result = await items().updateOne({ _id: 'a' }, { $unset: paths });
        expect(result).to.deep.equal({ matchedCount: 1, modifiedCount: 0, upsertedCount: 0 });
        expect(await items().findOne({ _id: 'a' })).to.deep.equal(before);
      }

      it('does nothing through a number, a string or a null, and reports no modification', async () => {
        await expectNoOp({ 'votes.x': '', 'status.x': '', 'closedAt.x': '' });
      });

      it('does nothing through an array read by name, or a value item of one', async function () {
        onlyWhereParsedLikeMongoDB(
          this,
          harness(),
          "it refuses 'tags.x' ('Invalid array index path')",
        );
        await expectNoOp({ 'tags.x': '', 'tags.0.x': '' });
        // through each item of the array ($[]): its items are values
        await expectNoOp({ 'tags.$[].x': '' });
      });
    });
  });
}
