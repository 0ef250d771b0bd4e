/**
 * If-Match carrying more than one tag, or tags that name no revision. README: "`If-Match`
 * compares the revision only (`"3"` works as well)", and "a retry with the same
 * `Idempotency-Key` answers the same, also when its `If-Match` named the revision before its
 * first attempt". A client that lists the ETags it holds sends them as reads answered them:
 * `"<revision>.<digest>"` (src/http/etag.ts).
 */
import { expect } from 'chai';
import { type Api, type NotesE2e, startNotesE2e } from './support.js';

describe('Notes writes whose If-Match lists ETags', function () {
  this.timeout(30_000);
  let e: NotesE2e;
  let api: Api;
  let n = 0;
  const key = () => `list-${Date.now()}-${n++}`;

  before(async () => {
    e = await startNotesE2e();
    api = e.api((await e.signIn('lisa@example.com')).token);
  });
  after(async () => e.stop());

  describe('When the list holds the current ETag as a read answered it, digest and all', () => {
    it('writes, and answers a retry with the same Idempotency-Key as the first attempt', async () => {
      const created = await api('POST', '/v1/notes', { content: 'first' });
      const path = `/v1/notes/${created.body.id}`;
      const edited = await api('PUT', path, { content: 'second' });
      const held = `${edited.headers.get('etag')}, ${created.headers.get('etag')}`;
      const headers = { 'if-match': held, 'idempotency-key': key() };
      const first = await api('PUT', path, { content: 'third' }, headers);
      expect(first.status, first.text).to.equal(200);
      expect(first.body.revision).to.equal(2);
      // the note is now at revision 2, which the list does not name: the retry is still the
      // first attempt's, not a lost update
      const again = await api('PUT', path, { content: 'third' }, headers);
      expect(again.status, again.text).to.equal(200);
      expect(again.headers.get('etag')).to.equal(first.headers.get('etag'));
    });
  });

  describe('When no tag of the If-Match names a revision', () => {
    it('answers 412 naming the tag sent and the current one, to read again', async () => {
      const created = await api('POST', '/v1/notes', { content: 'draft' });
      const res = await api(
        'PUT',
        `/v1/notes/${created.body.id}`,
        { content: 'x' },
        { 'if-match': '"draft", "v2"' },
      );
      expect(res.status).to.equal(412);
      expect(res.body).to.deep.equal({
        error:
          'the note has changed since it was read (If-Match "draft", "v2", current ETag "0"); read it again',
      });
    });
  });
});
