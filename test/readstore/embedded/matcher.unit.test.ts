/**
 * The native filter fast path must give exactly mingo's answer (mingo is the reference the
 * design names: "collections held in memory and evaluated with mingo").
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { Query } from 'mingo';
import { interpretFilter } from '../../../src/readstore/embedded/interpret.js';
import { compileFilter } from '../../../src/readstore/embedded/matcher.js';
import type { Doc, Filter } from '../../../src/readstore/types.js';

const scalar = fc.oneof(
  fc.constantFrom('a', 'b', 'B', '', 0, 1, 2.5, -1, true, false),
  fc.constant(null),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc.record(
      { x: scalar, y: fc.array(scalar, { maxLength: 2 }) },
      { requiredKeys: [], noNullPrototype: true },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.array(fc.record({ x: scalar }, { requiredKeys: [], noNullPrototype: true }), {
      maxLength: 2,
    }),
  },
);
const docArb = fc
  .record(
    {
      a: value,
      b: value,
      c: fc.record({ x: value, y: value }, { requiredKeys: [], noNullPrototype: true }),
    },
    { requiredKeys: [], noNullPrototype: true },
  )
  .map((fields) => ({ _id: 'id', ...fields }) as Doc);

const path = fc.constantFrom('a', 'b', 'c', 'c.x', 'c.y', 'a.x', 'missing');
const condition: fc.Arbitrary<unknown> = fc.oneof(
  scalar,
  scalar.map(($eq) => ({ $eq })),
  scalar.map(($ne) => ({ $ne })),
  fc.array(scalar, { maxLength: 3 }).map(($in) => ({ $in })),
  fc.array(scalar, { maxLength: 3 }).map(($nin) => ({ $nin })),
  fc
    .constantFrom('$gt', '$gte', '$lt', '$lte')
    .chain((op) => fc.constantFrom('a', 'b', 0, 1, 2).map((v) => ({ [op]: v }))),
  fc.record({ $gt: fc.constantFrom(0, 'a'), $lte: fc.constantFrom(2, 'b') }),
  fc.boolean().map(($exists) => ({ $exists })),
  fc.constant({ $size: 1 }),
);
const leaf: fc.Arbitrary<Filter> = fc.tuple(path, condition).map(([p, c]) => ({ [p]: c }));
const filterArb: fc.Arbitrary<Filter> = fc.letrec((tie) => ({
  filter: fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 1, arbitrary: fc.tuple(leaf, leaf).map(([x, y]) => ({ ...x, ...y })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('$and', '$or', '$nor'),
          fc.array(tie('filter'), { minLength: 1, maxLength: 3 }),
        )
        .map(([op, list]) => ({ [op]: list })),
    },
  ),
})).filter as fc.Arbitrary<Filter>;

describe('Embedded read store: filter fast path', () => {
  describe('When any supported filter meets any document', () => {
    it('answers exactly as mingo does', () => {
      fc.assert(
        fc.property(filterArb, docArb, (filter, doc) => {
          expect(compileFilter(filter)(doc), JSON.stringify({ filter, doc })).to.equal(
            new Query(filter).test(doc),
          );
        }),
        { numRuns: 3000 },
      );
    });
  });

  describe("When the filter is only top-level equalities (the request path's lookups)", () => {
    it('answers exactly as mingo does, arrays in the document included', () => {
      const flat = fc
        .uniqueArray(fc.constantFrom('a', 'b', 'c', 'missing', '_id'), {
          minLength: 1,
          maxLength: 4,
        })
        .chain((keys) => fc.tuple(...keys.map((key) => scalar.map((v) => [key, v] as const))))
        .map((pairs) => Object.fromEntries(pairs) as Filter);
      fc.assert(
        fc.property(flat, docArb, (filter, doc) => {
          expect(compileFilter(filter)(doc), JSON.stringify({ filter, doc })).to.equal(
            new Query(filter).test(doc),
          );
        }),
        { numRuns: 2000 },
      );
    });

    it('matches whatever else the document holds, a field named "undefined" included', () => {
      // MongoDB field names are any string; only the filter's own fields are compared
      const doc = { _id: 'x', status: 'open', undefined: 1 } as Doc;
      expect(compileFilter({ status: 'open' })(doc)).to.equal(true);
      expect(new Query({ status: 'open' }).test(doc)).to.equal(true);
    });
  });

  describe('When a filter is interpreted instead of compiled (documents pinned by _id)', () => {
    it('answers exactly as mingo does, or declines exactly the filters the compiler leaves to mingo', () => {
      fc.assert(
        fc.property(filterArb, docArb, (filter, doc) => {
          const interpreted = interpretFilter(filter);
          const expected = new Query(filter).test(doc);
          if (interpreted === null) {
            // declined: only filters outside the native subset ($size here)
            expect(JSON.stringify(filter)).to.include('$size');
          } else {
            expect(interpreted(doc), JSON.stringify({ filter, doc })).to.equal(expected);
          }
        }),
        { numRuns: 3000 },
      );
    });

    // objects.ts: only a plain object is a document, as the MongoDB driver sends one; a Date
    // operand is an equality on a date, mingo's, and a Date where an $or branch belongs is no
    // branch at all (filter-shape.ts refuses it before a collection interprets anything)
    it('declines a Date where a document or an operator document is expected', () => {
      expect(interpretFilter({ _id: 'a', at: new Date(0) })).to.equal(null);
      const branch = new Date(0) as unknown as Filter;
      expect(interpretFilter({ _id: 'a', $or: [branch] })).to.equal(null);
    });

    it('answers the guarded-update filter of the projectors as mingo does', () => {
      const guard = (key: string): Filter => ({
        _id: 'id',
        $or: [{ _pos: { $lt: key } }, { _pos: { $exists: false } }],
      });
      for (const doc of [{ _id: 'id' }, { _id: 'id', _pos: '0a' }, { _id: 'id', _pos: '0c' }]) {
        for (const key of ['0b', '0a']) {
          expect(interpretFilter(guard(key))!(doc as Doc)).to.equal(
            new Query(guard(key)).test(doc),
          );
        }
      }
    });
  });

  describe('When the filter is empty', () => {
    it('matches every document', () => {
      expect(compileFilter({})({ _id: 'x' })).to.equal(true);
    });
  });
});
