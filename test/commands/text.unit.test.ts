/**
 * Texts are counted and cut in characters (code points), as the spec's limits and the OpenAPI
 * `maxLength` count them: a cut never leaves half of a surrogate pair.
 */
import { expect } from 'chai';
import { characters, cutAt } from '../../commands/shared/text.js';

describe('Cutting a text to a number of characters', () => {
  it('keeps whole emoji and counts each as one character', () => {
    expect(cutAt('ab😀c', 3)).to.equal('ab😀');
    expect(cutAt('ab😀c', 2)).to.equal('ab');
    expect(cutAt('😀😀😀', 2)).to.equal('😀😀');
    expect(characters(cutAt('😀'.repeat(50), 49))).to.equal(49);
    expect(cutAt('short', 10)).to.equal('short');
  });
  it('counts the first and the last code point past U+FFFF as one character each', () => {
    // U+10000 is D800 DC00 and U+10FFFF is DBFF DFFF: the surrogate ranges' own bounds
    expect(characters('\u{10000}')).to.equal(1);
    expect(characters('a\u{10FFFF}b')).to.equal(3);
  });
  it('keeps a lone surrogate already in the text as one character', () => {
    expect(cutAt('a\ud83db', 2)).to.equal('a\ud83d');
  });
});
