import { expect } from 'chai';
import fc from 'fast-check';
import { normalize } from '../../src/search/embedder.js';
import { createScopeArena } from '../../src/search/scope-arena.js';
import {
  cosineToScore,
  decodeVector,
  encodeVector,
  textHash,
} from '../../src/search/vector-codec.js';

const DIM = 6;
const vectorArb = fc
  .array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: DIM, maxLength: DIM })
  .map((v) => normalize(Float32Array.from(v)));

describe('Scope arena', () => {
  describe('When vectors are set, overwritten and deleted in any order', () => {
    it('returns the same top hits as sorting every live vector by score', () => {
      const op = fc.oneof(
        fc.record({
          kind: fc.constant('set' as const),
          id: fc.integer({ min: 0, max: 15 }),
          vector: vectorArb,
        }),
        fc.record({ kind: fc.constant('delete' as const), id: fc.integer({ min: 0, max: 15 }) }),
      );
      fc.assert(
        fc.property(
          fc.array(op, { maxLength: 60 }),
          vectorArb,
          fc.integer({ min: 1, max: 8 }),
          (ops, query, limit) => {
            const arena = createScopeArena(DIM, 1);
            const live = new Map<string, Float32Array>();
            for (const o of ops) {
              if (o.kind === 'set') {
                arena.set(`v${o.id}`, o.vector);
                live.set(`v${o.id}`, o.vector);
              } else {
                expect(arena.delete(`v${o.id}`)).to.equal(live.delete(`v${o.id}`));
              }
            }
            expect(arena.size).to.equal(live.size);
            const expected = [...live]
              .map(([id, v]) => ({
                id,
                score: cosineToScore(v.reduce((s, x, i) => s + x * query[i], 0)),
              }))
              .filter((h) => h.score > 0)
              .sort((a, b) => b.score - a.score)
              .slice(0, limit);
            const actual = arena.top(query, limit, 0);
            expect(actual.map((h) => h.score)).to.have.length(expected.length);
            actual.forEach((hit, i) => {
              expect(hit.score).to.be.closeTo(expected[i].score, 1e-5);
              expect(hit.score).to.be.within(0, 1);
            });
          },
        ),
        { numRuns: 200 },
      );
    });
  });

  describe('When a vector of another size arrives (another provider)', () => {
    it('ignores it', () => {
      const arena = createScopeArena(3);
      arena.set('a', new Float32Array(5));
      expect(arena.size).to.equal(0);
    });
  });
});

describe('Vector codec', () => {
  it('round-trips a vector through base64', () => {
    const v = Float32Array.from([0.1, -2.5, 3e-8, 1]);
    expect(decodeVector(encodeVector(v))).to.deep.equal(v);
    expect(decodeVector(encodeVector(v.subarray(1, 3)))).to.deep.equal(v.subarray(1, 3));
  });

  it('maps cosines into [0, 1]: negatives to 0, positives unchanged', () => {
    expect(cosineToScore(-0.7)).to.equal(0);
    expect(cosineToScore(0.42)).to.equal(0.42);
    expect(cosineToScore(1.0000001)).to.equal(1);
    expect(cosineToScore(Number.NaN)).to.equal(0);
  });

  it('hashes equal texts equally and different texts differently', () => {
    expect(textHash('dark mode')).to.equal(textHash('dark mode'));
    expect(textHash('dark mode')).to.not.equal(textHash('dark mode '));
  });
});
