import { expect } from 'chai';
import type { Embedder } from '../../src/search/embedder.js';
import { loadEnergeticEmbedder } from '../../src/search/energetic-embedder.js';
import { feedbackRecallAt } from './support/quality.js';

describe('Feedback search relevance (bundled encoder)', function () {
  this.timeout(60_000);
  let result: Awaited<ReturnType<typeof feedbackRecallAt>>;
  before(async () => {
    const embedder: Embedder = await loadEnergeticEmbedder();
    result = await feedbackRecallAt(5, embedder);
  });

  describe('When makers search the labelled fixture the way users phrase things', () => {
    // issue 4: Target: recall@5 ≥ 0.8 on the bundled encoder
    it('puts the relevant items in the top 5 (recall@5 ≥ 0.8)', async () => {
      const { recall, perQuery } = result;
      const misses = perQuery
        .filter((q) => q.recall < 1)
        .map((q) => `${q.query} → ${q.top.join(', ')}`);
      expect(recall, `misses:\n${misses.join('\n')}`).to.be.at.least(0.8);
    });

    it('finds "please add a night theme" for "dark mode"', () => {
      expect(result.perQuery.find((q) => q.query === 'dark mode')?.top).to.include('night-theme');
    });
  });
});
