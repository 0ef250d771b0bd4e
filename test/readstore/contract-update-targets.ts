/**
 * Contract: what an update operator needs where its path ends. MongoDB refuses the update when
 * the field is there with a value of another type; a missing field is created (or, for the
 * operators that remove, left alone). mingo instead skips such a field, silently.
 */
import { expect } from 'chai';
import { type OpenHarness, updateContract } from './contract-fixtures.js';

export function updateTargetContract(open: OpenHarness): void {
  updateContract(open, ({ items, expectRefused }) => {
    // MongoDB: "Cannot apply $pull to a non-array value" (BadValue, array_culling_node.cpp, for
    // $pullAll too), "Path 'votes' contains an element of non-array type 'int'" ($pop, TypeMismatch,
    // pop_node.cpp), "The field 'votes' must be an array but is of type int" ($push,
    // push_node.cpp), "Cannot apply $addToSet to non-array field" (addtoset_node.cpp)
    describe('When an array operator meets a value that is not an array', () => {
      it('refuses the update, leaving the document unchanged', async () => {
        await expectRefused([
          { $pull: { votes: 1 } },
          { $pull: { status: { $in: ['open'] } } },
          { $pull: { closedAt: 1 } },
          { $pull: { author: { name: 'Ann' } } },
          { $pull: { 'author.name': 'Ann' } },
          { $pullAll: { votes: [5] } },
          { $pop: { votes: 1 } },
          { $pop: { 'author.name': -1 } },
          { $push: { votes: { $each: [1], $sort: 1 } } },
          { $push: { status: { $each: ['x'], $position: 0 } } },
          { $addToSet: { votes: 1 }, $mul: { fresh: 2 } },
        ]);
      });

      it('leaves a missing field alone for $pull, $pullAll and $pop', async () => {
        const result = await items().updateOne(
          { _id: 'a' },
          { $pull: { gone: 1 }, $pullAll: { 'author.gone': [1] }, $pop: { 'deep.gone': 1 } },
        );
        expect(result).to.deep.equal({ matchedCount: 1, modifiedCount: 0, upsertedCount: 0 });
      });
    });

    // MongoDB: "Cannot apply $inc to a value of non-numeric type" ($mul alike; TypeMismatch,
    // arithmetic_node.cpp), "Cannot apply $bit to a value of non-integral type" (bit_node.cpp)
    describe('When $inc, $mul or $bit meet a value that is not a number', () => {
      it('refuses the update, leaving the document unchanged', async () => {
        await expectRefused([
          { $mul: { status: 2 } },
          { $mul: { closedAt: 2 } },
          { $mul: { 'author.name': 2 } },
          { $inc: { 'tags.$[]': 1 } },
          { $inc: { status: 1 }, $mul: { fresh: 2 } },
          { $bit: { status: { and: 1 } } },
        ]);
      });

      it('creates a missing field', async () => {
        await items().updateOne({ _id: 'a' }, { $mul: { fresh: 3 }, $inc: { 'deep.count': 2 } });
        expect(await items().findOne({ _id: 'a' })).to.deep.include({
          fresh: 0,
          deep: { count: 2 },
        });
      });
    });
  });
}
