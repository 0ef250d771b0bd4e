/**
 * If-Match carrying more than one tag, or tags that name no revision. README: "`If-Match`
 * compares the revision only (`"3"` works as well)", and "a retry with the same
 * `Idempotency-Key` answers the same, also when its `If-Match` named the revision before its
 * first attempt". A client that lists the ETags it holds sends them as reads answered them:
 * `"<revision>.<digest>"` (src/http/etag.ts). README: a 412 for an If-Match naming no current
 * revision names "exactly the `ETag` header a GET of the resource sends at that moment".
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
    it('answers 412 naming the tag sent and the ETag a read sends: no tag of the note, not a change', async () => {
      const created = await api('POST', '/v1/notes', { content: 'draft', tags: ['x'] });
      const path = `/v1/notes/${created.body.id}`;
      const res = await api('PUT', path, { content: 'x' }, { 'if-match': '"draft", "v2"' });
      const etag = (await api('GET', path)).headers.get('etag');
      expect(etag).to.match(/^"0\.[A-Za-z0-9_-]{11}"$/);
      expect(res.status).to.equal(412);
      expect(res.body).to.deep.equal({
        error: `If-Match "draft", "v2" holds no entity tag of this note, which is at revision 0 (current ETag ${etag}); send the ETag as read`,
      });
    });

    it('names the ETag a read sends for a tag and a device too', async () => {
      const tag = await api('POST', '/v1/tags', { name: `t-${key()}` });
      const device = await api('POST', '/v1/devices', { name: `d-${key()}`, platform: 'web' });
      for (const [what, path, body] of [
        ['tag', `/v1/tags/${tag.body.id}`, { name: `u-${key()}` }],
        ['device', `/v1/devices/${device.body.id}`, { platform: 'ios' }],
      ] as const) {
        const res = await api('PUT', path, body, { 'if-match': '"v2"' });
        const etag = (await api('GET', path)).headers.get('etag');
        expect(res.status, `${what}: ${res.text}`).to.equal(412);
        expect(res.body, what).to.deep.equal({
          error: `If-Match "v2" holds no entity tag of this ${what}, which is at revision 0 (current ETag ${etag}); send the ETag as read`,
        });
      }
    });
  });
});
