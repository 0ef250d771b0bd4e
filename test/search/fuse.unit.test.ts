/**
 * README, Search: "The score, in [0, 1], is `1 − (1 − semantic) · (1 − 0.7 · coverage³)`,
 * coverage being the share of the query's words a text holds: a text with every word of the
 * query ... scores at least 0.7; a paraphrase ... keeps its semantic score", and hits under the
 * weak-match threshold are dropped. `fuse` on hand-made rankings, so each figure is checked exactly.
 */
import { expect } from 'chai';
import { fuse } from '../../src/search/hybrid.js';
import type { LexicalHit } from '../../src/search/lexical-index.js';
import type { SearchHit } from '../../src/search/scope-arena.js';

function fused(input: {
  semantic?: SearchHit[];
  semanticLimit?: number;
  lexical?: LexicalHit[];
  semanticOf?: (id: string) => number;
  limit?: number;
  minScore?: number;
}): SearchHit[] {
  return fuse({
    semantic: input.semantic ?? [],
    semanticLimit: input.semanticLimit ?? 10,
    lexical: input.lexical ?? [],
    semanticOf: input.semanticOf ?? (() => 0),
    limit: input.limit ?? 10,
    minScore: input.minScore ?? 0,
  });
}

describe('When the two rankings are fused into one score', () => {
  it('scores 1 − (1 − semantic) · (1 − 0.7 · coverage³), with the coverage cubed', () => {
    const [hit] = fused({
      semantic: [{ id: 'a', score: 0.5 }],
      lexical: [{ id: 'a', score: 2, coverage: 2 / 3 }],
    });
    expect(hit?.score).to.be.closeTo(1 - 0.5 * (1 - 0.7 * (2 / 3) ** 3), 1e-12);
  });

  it('scores a text holding every query word 0.7 when the encoder sees nothing in it', () => {
    const [hit] = fused({
      lexical: [{ id: 'code', score: 5, coverage: 1 }],
      semanticOf: () => 0,
    });
    expect(hit).to.deep.equal({ id: 'code', score: 0.7 });
  });

  it('keeps the semantic score of a paraphrase that shares no word with the query', () => {
    const [hit] = fused({ semantic: [{ id: 'p', score: 0.42 }] });
    expect(hit?.id).to.equal('p');
    expect(hit?.score).to.be.closeTo(0.42, 1e-12);
  });

  it('drops what scores under the weak-match threshold and keeps what scores exactly at it', () => {
    const hits = fused({
      semantic: [
        { id: 'at', score: 0.4 },
        { id: 'under', score: 0.39 },
      ],
      minScore: 0.4,
    });
    expect(hits).to.deep.equal([{ id: 'at', score: 0.4 }]);
  });

  it('orders equal scores by BM25, then by id', () => {
    const hits = fused({
      lexical: [
        { id: 'b', score: 1, coverage: 1 },
        { id: 'c', score: 3, coverage: 1 },
        { id: 'a', score: 1, coverage: 1 },
      ],
    });
    expect(hits.map((hit) => hit.id)).to.deep.equal(['c', 'a', 'b']);
  });

  it('keeps a text holding every query word at a threshold of exactly 0.7', () => {
    const hits = fused({ lexical: [{ id: 'code', score: 5, coverage: 1 }], minScore: 0.7 });
    expect(hits.map((hit) => hit.id)).to.deep.equal(['code']);
  });
});

/**
 * Texts the semantic list left out are scored only while they can still reach the answer
 * (hybrid.ts): a shortcut, so it must never change the answer.
 */
describe('When texts only the lexical index found are weighed', () => {
  it('finds one holding every query word past one holding a common word with a higher BM25', () => {
    const hits = fused({
      semantic: [{ id: 'x', score: 0.2 }],
      semanticLimit: 1,
      lexical: [
        { id: 'common', score: 9, coverage: 0.3 },
        { id: 'every', score: 1, coverage: 1 },
      ],
      semanticOf: (id) => (id === 'every' ? 0.1 : 0),
      minScore: 0.5,
    });
    expect(hits.map((hit) => hit.id)).to.deep.equal(['every']);
  });

  it('lifts one the full semantic list left out, scored by its own semantic score', () => {
    // the list holds as many as asked: a text left out scores at most its last score, 0.5
    const hits = fused({
      semantic: [
        { id: 'x', score: 0.6 },
        { id: 'y', score: 0.5 },
      ],
      semanticLimit: 2,
      lexical: [{ id: 'z', score: 1, coverage: 0.5 }],
      semanticOf: () => 0.5,
      limit: 2,
    });
    expect(hits.map((hit) => hit.id)).to.deep.equal(['x', 'z']);
    expect(hits[1]?.score).to.be.closeTo(1 - 0.5 * (1 - 0.7 * 0.5 ** 3), 1e-12);
  });

  it('keeps the bar at the lowest of the best scores when a text scored under it is weighed', () => {
    // x 0.6 and y 0.5 fill the answer; "low" may reach 0.68 but scores 0.36 and changes nothing,
    // so "z" (0.54, over y) still belongs in it
    const hits = fused({
      semantic: [
        { id: 'x', score: 0.6 },
        { id: 'y', score: 0.5 },
      ],
      semanticLimit: 2,
      lexical: [
        { id: 'low', score: 1, coverage: 0.8 },
        { id: 'z', score: 1, coverage: 0.5 },
      ],
      semanticOf: (id) => (id === 'z' ? 0.5 : 0),
      limit: 2,
    });
    expect(hits.map((hit) => hit.id)).to.deep.equal(['x', 'z']);
  });
});
