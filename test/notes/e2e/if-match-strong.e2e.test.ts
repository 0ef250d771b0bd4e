/**
 * If-Match is compared strongly. RFC 9110 §8.8.3.2: "Strong comparison: two entity tags are
 * equivalent if both are not weak and their opaque-tags match character-by-character." So a tag
 * whose revision is written otherwise than the ETag writes it (`"00"` for `"0"`) names no
 * current revision: it is refused as any other tag that does not match. README: "`If-Match`
 * compares the revision only (`"3"` works as well)"; src/http/etag.ts: a tag sent without its
 * quotes is read as the quoted one.
 */
import { expect } from 'chai';
import { type Api, type NotesE2e, startNotesE2e } from './support.js';

describe('Notes writes whose If-Match is compared strongly', function () {
  this.timeout(30_000);
  let e: NotesE2e;
  let api: Api;

  before(async () => {
    e = await startNotesE2e();
    api = e.api((await e.signIn('strong@example.com')).token);
  });
  after(async () => e.stop());

  /** a new note at revision 0, and the ETag its GET sends */
  async function newNote() {
    const created = await api('POST', '/v1/notes', { content: 'kept' });
    const path = `/v1/notes/${created.body.id}`;
    const etag = (await api('GET', path)).headers.get('etag') ?? '';
    expect(etag).to.match(/^"0\.[A-Za-z0-9_-]{11}"$/);
    return { path, etag };
  }

  describe('When the If-Match writes the current revision with a leading zero', () => {
    it('answers 412 as for any tag that does not match, and changes nothing', async () => {
      const { path, etag } = await newNote();
      const other = await api('PUT', path, { content: 'lost' }, { 'if-match': '"draft"' });
      expect(other.status).to.equal(412);
      const digest = etag.slice(3, -1);
      for (const ifMatch of ['"00"', '00', `"00.${digest}"`, ' "00" ', '"x", "00"']) {
        const res = await api('PUT', path, { content: 'lost' }, { 'if-match': ifMatch });
        expect(res.status, ifMatch).to.equal(412);
        // the answer `"draft"` gets, naming the If-Match sent (fetch trims the header value)
        expect(res.body, ifMatch).to.deep.equal({
          error: other.body.error.replace('"draft"', ifMatch.trim()),
        });
      }
      const after = await api('GET', path);
      expect(after.body).to.include({ content: 'kept', revision: 0 });
      expect(after.headers.get('etag')).to.equal(etag);
    });
  });

  describe('When the If-Match names the current revision in a documented form', () => {
    it('writes for the ETag as sent, the revision alone, unquoted, `*` and a list', async () => {
      const { path } = await newNote();
      const forms: Array<(etag: string, revision: number) => string> = [
        (etag) => etag,
        (_, revision) => `"${revision}"`,
        (_, revision) => `${revision}`,
        () => '*',
        (etag) => `"draft", ${etag}`,
      ];
      for (const [i, form] of forms.entries()) {
        const read = await api('GET', path);
        const ifMatch = form(read.headers.get('etag') ?? '', read.body.revision);
        const res = await api('PUT', path, { content: `v${i}` }, { 'if-match': ifMatch });
        expect(res.status, `${ifMatch}: ${res.text}`).to.equal(200);
        expect(res.body.revision, ifMatch).to.equal(i + 1);
      }
    });
  });
});
