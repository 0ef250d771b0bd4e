/**
 * README "Search": "a search's query is embedded before any indexing waiting for the embedder: it
 * waits at most for the one unit of work already running (4 texts or 8,192 characters at most, or
 * a single text)". What bounds that wait is the size of a unit (src/search/embedder-thread.ts,
 * `units`); the order is held in embedder-fairness.int.test.ts.
 */
import { expect } from 'chai';
import { UNIT_CHARS, UNIT_TEXTS, units } from '../../src/search/embedder-thread.js';

describe('Embedder thread units', () => {
  describe('Rule: a unit of work holds at most 4 texts and 8,192 characters, or a single text', () => {
    it('cuts work into units of at most 4 texts and 8,192 characters (a text that does not fit starts the next)', () => {
      expect([UNIT_TEXTS, UNIT_CHARS]).to.deep.equal([4, 8_192]);
      const sizes = [10, 20, 8_000, 100, 8_192, 5_000, 4_000, ...Array(20).fill(30)];
      const texts = sizes.map((n) => 'x'.repeat(n));
      const cut = units(texts);
      expect(cut.flat()).to.deep.equal(texts);
      for (const unit of cut) {
        expect(unit.length).to.be.within(1, 4);
        if (unit.length > 1) expect(unit.join('').length).to.be.at.most(8_192);
      }
      expect(cut.map((unit) => unit.length)).to.deep.equal([4, 1, 1, 4, 4, 4, 4, 4, 1]);
    });
  });
});
