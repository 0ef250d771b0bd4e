/**
 * If-Match on the notes operations that carry no ETag (list_notes, list_tags, list_devices,
 * search_notes, sync_changes, get_note_history), over real HTTP. RFC 9110 §13.1.1: the condition
 * "is true if any of the listed tags match the entity tag of the selected representation", and
 * "An origin server MUST NOT perform the requested method if a received If-Match condition
 * evaluates to false": a list has no entity tag, so only `*` holds. README: "Any other operation
 * (…) carries no ETag: an `If-Match` other than `*` cannot hold (…) and the request is refused
 * with 412".
 */
import { expect } from 'chai';
import { type Api, type NotesE2e, startNotesE2e } from './support.js';

describe('When a notes request without an ETag carries If-Match', function () {
  this.timeout(30_000);
  let e: NotesE2e;
  let api: Api;

  before(async () => {
    e = await startNotesE2e();
    api = e.api((await e.signIn('iris@example.com')).token);
    await api('POST', '/v1/notes', { content: 'first' });
  });
  after(async () => e.stop());

  it('refuses list_notes with a tag 412 in the {error} envelope, naming the tag', async () => {
    const refused = await api('GET', '/v1/notes', undefined, { 'if-match': '"0"' });
    expect(refused.status, refused.text).to.equal(412);
    expect(refused.body).to.deep.equal({
      error:
        'this resource carries no ETag, so If-Match "0" cannot match (RFC 9110 §13.1.1); send the request without If-Match',
    });
  });

  it('refuses a list of tags', async () => {
    const refused = await api('GET', '/v1/tags', undefined, { 'if-match': '"1", "2"' });
    expect(refused.status, refused.text).to.equal(412);
  });

  it('answers list_notes under If-Match: * as without the header', async () => {
    const listed = await api('GET', '/v1/notes', undefined, { 'if-match': '*' });
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body).to.deep.equal((await api('GET', '/v1/notes')).body);
  });

  it('still lets a versioned write compare If-Match with its revision', async () => {
    const created = await api('POST', '/v1/notes', { content: 'second' });
    const path = `/v1/notes/${created.body.id}`;
    const etag = created.headers.get('etag')!;
    const edited = await api('PUT', path, { content: 'third' }, { 'if-match': etag });
    expect(edited.status, edited.text).to.equal(200);
    const stale = await api('PUT', path, { content: 'fourth' }, { 'if-match': etag });
    expect(stale.status).to.equal(412);
    expect(stale.body.error).to.contain(
      `current ETag ${(await api('GET', path)).headers.get('etag')}`,
    );
  });
});
