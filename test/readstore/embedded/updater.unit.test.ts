/**
 * The native update path must leave a document exactly as mingo's updater would, and report a
 * change exactly when mingo reports modified fields (that decides MongoDB's modifiedCount, on
 * which the projectors' guards rely: "applied twice changes nothing").
 * Two places where mingo 7.2.7 departs from MongoDB follow MongoDB instead, and the property
 * steers around them: $addToSet de-duplicates an array that already held duplicates, and
 * $inc/$push/$pull on a field of the wrong type is silently ignored (MongoDB refuses the update), and
 * $addToSet.$each with repeated items on a missing field keeps the repeats.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { update as mingoUpdate } from 'mingo';
import { InvalidUpdateError } from '../../../src/readstore/embedded/errors.js';
import { validateUpdate } from '../../../src/readstore/embedded/update-shape.js';
import { applyUpdate } from '../../../src/readstore/embedded/updater.js';

const scalar = fc.oneof(fc.constantFrom('a', 'b', 0, 1, 5, true), fc.constant(null));
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: scalar },
  { weight: 2, arbitrary: fc.uniqueArray(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.record({ k: scalar }, { requiredKeys: [], noNullPrototype: true }) },
);
const docArb = fc
  .record(
    {
      a: value,
      n: fc.oneof(fc.integer({ min: -3, max: 3 }), scalar),
      list: fc.uniqueArray(scalar, { maxLength: 3 }),
      o: fc.record({ x: value, y: fc.integer() }, { requiredKeys: [], noNullPrototype: true }),
    },
    { requiredKeys: [], noNullPrototype: true },
  )
  .map((fields) => ({ _id: 'id', ...fields }));

const path = fc.constantFrom('a', 'n', 'list', 'o.x', 'o.y', 'o.z', 'fresh', 'deep.new.path');
const numberPath = fc.constantFrom('n', 'o.y', 'fresh');
const arrayPath = fc.constantFrom('list', 'fresh', 'o.x');
const opArb: fc.Arbitrary<[string, string, unknown]> = fc.oneof(
  fc.tuple(fc.constant('$set'), path, value),
  fc.tuple(fc.constant('$unset'), path, fc.constant('')),
  fc.tuple(fc.constant('$inc'), numberPath, fc.integer({ min: -2, max: 2 })),
  fc.tuple(fc.constantFrom('$max', '$min'), numberPath, fc.integer({ min: -5, max: 5 })),
  fc.tuple(fc.constantFrom('$push', '$addToSet'), arrayPath, scalar),
  fc.tuple(
    fc.constantFrom('$push', '$addToSet'),
    arrayPath,
    fc.uniqueArray(scalar, { maxLength: 3 }).map(($each) => ({ $each })),
  ),
  fc.tuple(fc.constant('$pull'), arrayPath, scalar),
);
const updateArb = fc.array(opArb, { minLength: 1, maxLength: 3 }).map((ops) => {
  const update: Record<string, Record<string, unknown>> = {};
  const used = new Set<string>();
  for (const [op, p, v] of ops) {
    // MongoDB refuses two operators on one path (or a path and its parent): keep them apart.
    const root = p.split('.')[0]!;
    if (used.has(root)) continue;
    used.add(root);
    update[op] ??= {};
    update[op][p] = v;
  }
  return update;
});

type Outcome = { doc: unknown; changed: boolean } | { error: true };

function viaMingo(doc: Record<string, unknown>, update: Record<string, unknown>): Outcome {
  const copy = structuredClone(doc);
  try {
    const fields = mingoUpdate(copy, update, undefined, undefined, { cloneMode: 'deep' });
    return { doc: copy, changed: fields.length > 0 };
  } catch {
    return { error: true };
  }
}

function native(
  doc: Record<string, unknown>,
  update: Record<string, Record<string, unknown>>,
): Outcome {
  try {
    return applyUpdate(doc, update, false);
  } catch (error) {
    if (!(error instanceof InvalidUpdateError)) throw error;
    return { error: true };
  }
}

/** MongoDB refuses $inc on a non-number and $push/$addToSet/$pull on a non-array (mingo ignores them). */
function wrongType(
  doc: Record<string, unknown>,
  update: Record<string, Record<string, unknown>>,
): boolean {
  const at = (path: string) =>
    path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], doc);
  const bad = (op: string, test: (v: unknown) => boolean) =>
    Object.keys(update[op] ?? {}).some((path) => at(path) !== undefined && test(at(path)));
  return (
    bad('$inc', (v) => typeof v !== 'number') ||
    bad('$push', (v) => !Array.isArray(v)) ||
    bad('$addToSet', (v) => !Array.isArray(v)) ||
    bad('$pull', (v) => !Array.isArray(v))
  );
}

describe('Embedded read store: update fast path', () => {
  describe('When any supported update is applied to any document', () => {
    it('produces the document and change flag mingo produces, and never mutates the input', () => {
      fc.assert(
        fc.property(docArb, updateArb, (doc, update) => {
          const before = structuredClone(doc);
          const actual = native(doc, update);
          expect(doc).to.deep.equal(before);
          const context = JSON.stringify({ doc, update });
          if ('error' in actual) expect(wrongType(doc, update), context).to.equal(true);
          else expect(actual, context).to.deep.equal(viaMingo(doc, update));
        }),
        { numRuns: 1000 },
      );
    });
  });

  describe('When the same update is applied twice', () => {
    it('changes nothing the second time for $set, $addToSet, $max and $unset', () => {
      const update = {
        $set: { a: 1 },
        $addToSet: { list: 'x' },
        $max: { n: 9 },
        $unset: { gone: '' },
      };
      const first = applyUpdate({ _id: 'x', gone: 1 }, update, false);
      const second = applyUpdate(first.doc, update, false);
      expect(first.changed).to.equal(true);
      expect(second).to.deep.equal({ doc: first.doc, changed: false });
    });
  });

  describe('When $setOnInsert is used', () => {
    it('applies only while inserting', () => {
      expect(applyUpdate({ _id: 'x' }, { $setOnInsert: { a: 1 } }, true).doc).to.deep.equal({
        _id: 'x',
        a: 1,
      });
      expect(applyUpdate({ _id: 'x' }, { $setOnInsert: { a: 1 } }, false)).to.deep.equal({
        doc: { _id: 'x' },
        changed: false,
      });
    });
  });

  describe('When any operator meets a path through a number (viable.ts: MongoDB refuses it for all but $unset)', () => {
    const doc = { _id: 'x', n: 5 };
    const operands: Record<string, unknown> = {
      $set: 1,
      $setOnInsert: 1,
      $inc: 1,
      $mul: 2,
      $min: 1,
      $max: 1,
      $push: 1,
      $addToSet: 1,
      $pull: 1,
      $pullAll: [1],
      $pop: 1,
      $rename: 'moved',
      $currentDate: true,
      $bit: { and: 1 },
    };
    for (const [op, operand] of Object.entries(operands)) {
      it(`refuses ${op} with InvalidUpdateError, native and through mingo alike`, () => {
        // beside an operator only mingo applies (one of its own kind would replace it)
        const mingoOnly = op === '$mul' ? { $pop: { m: 1 } } : { $mul: { m: 1 } };
        for (const update of [
          { [op]: { 'n.x': operand } },
          { [op]: { 'n.x': operand }, ...mingoOnly },
        ]) {
          expect(() => applyUpdate(doc, update, true), JSON.stringify(update)).to.throw(
            InvalidUpdateError,
            /'x'|\(x\)/,
          );
        }
      });
    }

    it('leaves $unset of it, and $setOnInsert while not inserting, as no change', () => {
      for (const update of [{ $unset: { 'n.x': '' } }, { $setOnInsert: { 'n.x': 1 } }]) {
        expect(applyUpdate(doc, update, false)).to.deep.equal({ doc, changed: false });
      }
    });
  });

  // MongoDB names the stored type: "Path 'votes' contains an element of non-array type 'int'"
  // ($pop, pop_node.cpp), "The field 'votes' must be an array but is of type int" ($push,
  // push_node.cpp); the driver stores 5 as an int and 2.5 as a double, never a 'number'
  describe('When an operator meets a value of the wrong type', () => {
    const doc = { _id: 'x', count: 5, ratio: 2.5, big: 2 ** 40, on: true, list: [1] };
    it("names it by MongoDB's type name", () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ $push: { count: 1 } }, 'is of type int'],
        [{ $push: { ratio: 1 } }, 'is of type double'],
        [{ $push: { big: 1 } }, 'is of type double'],
        [{ $pop: { on: 1 } }, "non-array type 'bool'"],
        [{ $addToSet: { count: 1 } }, 'non-array type int'],
        [{ $inc: { list: 1 } }, 'is of type array'],
        [{ $bit: { ratio: { and: 1 } } }, 'is of type double'],
        [{ $bit: { big: { and: 1 } } }, 'is of type double'],
      ];
      for (const [update, message] of cases) {
        expect(() => applyUpdate(doc, update, false), JSON.stringify(update)).to.throw(
          InvalidUpdateError,
          message,
        );
      }
    });
  });

  describe('When the update document is not made of operators', () => {
    it('is refused with InvalidUpdateError', () => {
      expect(() => validateUpdate({ status: 'open' })).to.throw(InvalidUpdateError);
      expect(() => validateUpdate({})).to.throw(InvalidUpdateError);
      expect(() => validateUpdate({ $set: 5 })).to.throw(InvalidUpdateError);
    });
  });

  describe('When a value cannot be stored as JSON', () => {
    it('is refused before anything changes', () => {
      expect(() => applyUpdate({ _id: 'x' }, { $set: { at: new Date() } }, false)).to.throw(/JSON/);
    });
  });
});
