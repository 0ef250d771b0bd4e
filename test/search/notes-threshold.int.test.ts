import { expect } from 'chai';
import type { Embedder } from '../../src/search/embedder.js';
import { loadEnergeticEmbedder } from '../../src/search/energetic-embedder.js';
import {
  NOTES_WEAK_MATCH_THRESHOLD_USE_LITE,
  notesWeakMatchThreshold,
} from '../../src/search/thresholds.js';
import { notesAtThreshold } from './support/quality.js';

describe('Notes search weak-match threshold (bundled encoder)', function () {
  this.timeout(60_000);
  let embedder: Embedder;
  let result: Awaited<ReturnType<typeof notesAtThreshold>>;
  before(async () => {
    embedder = await loadEnergeticEmbedder();
    result = await notesAtThreshold(notesWeakMatchThreshold(embedder.provider), embedder);
  });

  it('uses the threshold calibrated for the bundled encoder: 0.40, as README says', () => {
    // README, Search: "the calibrated weak-match threshold (0.40 on the bundled encoder)"
    expect(notesWeakMatchThreshold(embedder.provider)).to.equal(0.4);
    expect(NOTES_WEAK_MATCH_THRESHOLD_USE_LITE).to.equal(0.4);
  });

  describe('When a query means a note without sharing its words', () => {
    // notes spec / issue 6: a query about the meaning of a note finds it without sharing words
    it('finds "Dentist" for "tooth doctor visit", first', async () => {
      const hits = await result.search('tooth doctor visit');
      expect(hits[0]?.id).to.equal('dentist');
    });

    // Issue 14's target is 90 %; the bundled encoder does not reach it (bench:search prints the
    // figures). This bar guards what it does reach on the 51-note fixture: 23 of 34 at 0.40.
    it('finds the meant note for at least 2 in 3 such queries (measured: 23 of 34)', () => {
      const missed = result.related.filter((r) => !r.found).map((r) => r.query);
      expect(result.foundRate, `missed: ${missed.join('; ')}`).to.be.at.least(2 / 3);
    });
  });

  describe('When a query is about nothing in the notes', () => {
    // notes spec / issue 6: drops weak matches (an unrelated query returns an empty list)
    it('returns an empty list for "quantum chromodynamics lecture"', async () => {
      expect(await result.search('quantum chromodynamics lecture')).to.deep.equal([]);
    });

    // Issue 14's target is 90 %: met on the first 16-query calibration set (15 of 16), missed on
    // the 20 queries written for issue 14 against 51 notes (12 of 20: a guitar note draws "jazz
    // saxophone improvisation", a plants note "photosynthesis in algae"). The bar guards the
    // measured figure; a better encoder (MODEL_DIR) or a recalibration must not lower it.
    it('returns an empty list for at least 55 % of such queries (measured: 12 of 20)', () => {
      const leaked = result.unrelated
        .filter((u) => u.hits.length > 0)
        .map((u) => `${u.query} → ${u.hits[0].id}`);
      expect(result.emptyRate, `not empty: ${leaked.join('; ')}`).to.be.at.least(0.55);
    });
  });

  describe('When results are returned', () => {
    it('each carries a score in [threshold, 1]', async () => {
      const hits = await result.search('italian pasta dish');
      expect(hits.map((h) => h.id)).to.include('lasagna');
      for (const hit of hits) {
        expect(hit.score).to.be.within(NOTES_WEAK_MATCH_THRESHOLD_USE_LITE, 1);
      }
    });
  });
});
