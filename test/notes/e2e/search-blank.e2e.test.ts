/**
 * search_notes takes `q` of "1 to 500 characters" and refuses one of only white space (400
 * `q must not be empty`). A `q` of only zero-width or format characters — U+200B, U+200C, U+200D,
 * U+2060, U+FEFF, the soft hyphen U+00AD, other Default_Ignorable_Code_Point characters, with
 * spaces or without — names nothing to look for either, and is refused the same way: it was
 * searched, and answered 200 with whatever the encoder made of nothing.
 */
import { expect } from 'chai';
import { signedInNotesApi } from './support.js';

describe('When search_notes is sent a q that shows nothing', function () {
  this.timeout(30_000);
  const api = signedInNotesApi();

  it('refuses a q of only zero-width or format characters as it refuses one of only spaces', async () => {
    const blank = ['\u200b', '\u200c\u200d', ' \u2060 ', '\ufeff', '\u00ad', '\u200b \u034f\u180e'];
    for (const q of ['   ', ...blank]) {
      const res = await api('GET', `/v1/notes/search?q=${encodeURIComponent(q)}`);
      expect(res.status, `${JSON.stringify(q)}: ${res.text}`).to.equal(400);
      expect(res.body).to.deep.equal({ error: 'q must not be empty' });
    }
  });

  it('still searches a q with a visible character beside them', async () => {
    expect(
      (await api('POST', '/v1/notes', { title: 'Boiler', content: 'service' })).status,
    ).to.equal(201);
    const res = await api('GET', `/v1/notes/search?q=${encodeURIComponent('\u200bboiler\u200b')}`);
    expect(res.status, res.text).to.equal(200);
  });
});
