/**
 * Sorting follows mingo's comparison order (`compare` of mingo/util, the order ordering.ts
 * documents), whatever mix of types the sort keys hold; the direct comparison of strings and
 * numbers and reading each sort value once must not change it.
 *
 * Known and unchanged: mingo's own $sort differs from `compare` for null vs a missing field and
 * for empty arrays (it ties the first pair), so the reference here is `compare`, not $sort.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { compare } from 'mingo/util';
import { window } from '../../../src/readstore/embedded/ordering.js';
import type { Doc } from '../../../src/readstore/types.js';

const value = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom('a', 'b', 'B', '', 'ab', 0, 1, -1, 2.5, true, false, null),
  },
  { weight: 1, arbitrary: fc.array(fc.constantFrom('a', 1, null), { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.record({ x: fc.constantFrom(1, 'a') }, { noNullPrototype: true }) },
);
const docs = fc
  .array(fc.record({ v: value, w: value }, { requiredKeys: [], noNullPrototype: true }), {
    maxLength: 12,
  })
  .map((list) =>
    list.map((fields, i) => ({ _id: `d${String(i).padStart(2, '0')}`, ...fields }) as Doc),
  );
const sort = fc.constantFrom<Record<string, 1 | -1>>(
  { v: 1 },
  { v: -1 },
  { v: 1, w: -1 },
  { w: -1, v: 1 },
);

describe('Embedded read store: sorting', () => {
  describe('When documents are sorted on keys of any type', () => {
    it('orders them as mingo does, ties broken by _id', () => {
      fc.assert(
        fc.property(docs, sort, fc.integer({ min: 0, max: 14 }), (list, spec, limit) => {
          const expected = [...list]
            .sort((a, b) => {
              for (const [field, direction] of Object.entries(spec)) {
                const order = compare(a[field], b[field]);
                if (order !== 0) return order * direction;
              }
              return a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
            })
            .map((d) => d._id);
          const options = limit === 0 ? { sort: spec } : { sort: spec, limit };
          const got = window(list, options).map((d) => d._id);
          expect(got, JSON.stringify({ list, spec })).to.deep.equal(
            limit === 0 ? expected : expected.slice(0, limit),
          );
        }),
        { numRuns: 1500 },
      );
    });
  });
});
