import { expect } from 'chai';
import fc from 'fast-check';
import type { KernelChoice } from '../../src/search/kernel/dot-kernel.js';
import { createScopeArena, type IdFilter } from '../../src/search/scope-arena.js';
import { cosineToScore } from '../../src/search/vector-codec.js';

const unit = (v: number[]) => {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return Float32Array.from(v, (x) => (n === 0 ? 0 : x / n));
};

/** One float32 step away from x, `steps` times: differences far below float32 summation error. */
const nudge = (x: number, steps: number) => {
  const cell = new Float32Array([x]);
  const bits = new Int32Array(cell.buffer);
  bits[0] += steps;
  return cell[0];
};

type Op =
  | { kind: 'fresh'; id: number; vector: number[] }
  | { kind: 'copy'; id: number; from: number } // an exact tie
  | { kind: 'nudge'; id: number; from: number; at: number; steps: number } // a near tie
  | { kind: 'delete'; id: number };

const scenario = (dim: number) => {
  const ids = fc.integer({ min: 0, max: 24 });
  const op: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('fresh' as const),
        id: ids,
        vector: fc.array(fc.float({ min: -1, max: 1, noNaN: true }), {
          minLength: dim,
          maxLength: dim,
        }),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('copy' as const), id: ids, from: ids }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('nudge' as const),
        id: ids,
        from: ids,
        at: fc.nat({ max: dim - 1 }),
        steps: fc.integer({ min: -3, max: 3 }),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), id: ids }) },
  );
  return fc.record({
    ops: fc.array(op, { maxLength: 80 }),
    // the query is often one of the stored vectors, so many hits crowd the top
    queryFrom: fc.option(ids, { nil: undefined }),
    queryRandom: fc.array(fc.float({ min: -1, max: 1, noNaN: true }), {
      minLength: dim,
      maxLength: dim,
    }),
    limit: fc.integer({ min: 1, max: 12 }),
    // 0, any value, or exactly some stored vector's score (the bound is inclusive)
    minScore: fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc.record({ kind: fc.constant('value' as const), value: fc.double({ min: 0, max: 0.9 }) }),
      fc.record({ kind: fc.constant('exact' as const), of: ids }),
    ),
    filter: fc.option(
      fc.record({ asSet: fc.boolean(), ids: fc.uniqueArray(ids, { maxLength: 25 }) }),
      { nil: undefined },
    ),
  });
};

const reference = (
  live: Map<string, Float32Array>,
  query: Float32Array,
  limit: number,
  minScore: number,
  allowed: (id: string) => boolean,
) =>
  [...live]
    .filter(([id]) => allowed(id))
    .map(([id, v]) => ({ id, dot: v.reduce((s, x, i) => s + x * query[i], 0) }))
    .filter((h) => h.dot > 0 && h.dot >= minScore)
    .sort((a, b) => b.dot - a.dot || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit)
    .map((h) => ({ id: h.id, score: cosineToScore(h.dot) }));

for (const kernel of ['simd', 'scalar'] as KernelChoice[]) {
  describe(`Scope arena on the ${kernel} kernel`, () => {
    for (const dim of [3, 16, 37]) {
      describe(`When ${dim}-dimensional vectors are set, tied, nearly tied, moved and deleted`, () => {
        it('returns exactly the hits of a plain sort of exact dot products (ties by id)', () => {
          fc.assert(
            fc.property(scenario(dim), (s) => {
              const arena = createScopeArena(dim, 1, { kernel });
              const live = new Map<string, Float32Array>();
              for (const o of s.ops) {
                const id = `v${o.id}`;
                let vector: Float32Array | undefined;
                if (o.kind === 'delete') {
                  expect(arena.delete(id)).to.equal(live.delete(id));
                  continue;
                }
                if (o.kind === 'fresh') vector = unit(o.vector);
                else {
                  const from = live.get(`v${o.from}`);
                  if (!from) continue;
                  vector = Float32Array.from(from);
                  if (o.kind === 'nudge') vector[o.at] = nudge(vector[o.at], o.steps);
                }
                arena.set(id, vector);
                live.set(id, vector);
              }
              expect(arena.size).to.equal(live.size);
              const fromStore = s.queryFrom === undefined ? undefined : live.get(`v${s.queryFrom}`);
              const query = fromStore ? Float32Array.from(fromStore) : unit(s.queryRandom);
              const ms = s.minScore;
              const exactOf = ms.kind === 'exact' ? live.get(`v${ms.of}`) : undefined;
              const minScore =
                ms.kind === 'value'
                  ? ms.value
                  : exactOf
                    ? exactOf.reduce((sum, x, i) => sum + x * query[i], 0)
                    : 0;
              const chosen = new Set((s.filter?.ids ?? []).map((n) => `v${n}`));
              const allow: IdFilter | undefined =
                s.filter === undefined
                  ? undefined
                  : s.filter.asSet
                    ? chosen
                    : (id: string) => chosen.has(id);
              const expected = reference(live, query, s.limit, minScore, (id) =>
                s.filter === undefined ? true : chosen.has(id),
              );
              const actual = arena.top(query, s.limit, minScore, allow);
              expect(actual.map((h) => h.id)).to.deep.equal(expected.map((h) => h.id));
              actual.forEach((hit, i) => {
                expect(Math.abs(hit.score - expected[i].score)).to.be.at.most(1e-6);
              });
            }),
            { numRuns: 120 },
          );
        });
      });
    }

    describe('When a query has the wrong dimension', () => {
      it('finds nothing rather than scoring garbage', () => {
        const arena = createScopeArena(4, 4, { kernel });
        arena.set('a', unit([1, 0, 0, 0]));
        expect(arena.top(unit([1, 0, 0]), 5, 0)).to.deep.equal([]);
        expect(arena.top(unit([1, 0, 0, 0]), 5, 0)).to.deep.equal([{ id: 'a', score: 1 }]);
      });
    });
  });
}
