/**
 * What a notes client is told for an If-Match that is no entity tag of the resource, over real
 * HTTP. RFC 9110 §13.1.1: `If-Match = "*" / #entity-tag`; §8.8.3: an entity-tag is a quoted
 * opaque-tag, optionally `W/`. A value that is no such list (`garbage`, `W/x`) cannot be evaluated:
 * 400, the malformed request it is (§15.5.1), before anything runs, a missing note included. A
 * well-formed tag that does not match stays 412 (§13.1.1), and its message tells the truth: "changed
 * since it was read" only for a revision the note has left behind, "holds no entity tag of this
 * note" for one it never had (`"draft"`, a revision not reached) — reading again would not help.
 */
import { expect } from 'chai';
import { signedInNotesApi } from './support.js';

const malformed = (ifMatch: string) =>
  `If-Match ${ifMatch} holds no entity tag (RFC 9110 §8.8.3: each in double quotes, "3" or W/"3", comma-separated, or the field is *); send the ETag as read, or no If-Match`;

describe('When a notes request carries an If-Match that is no tag of the note (e2e)', function () {
  this.timeout(30_000);
  const api = signedInNotesApi('mona@example.com');

  /** a note at revision 1 (written once after its create) and its path */
  async function noteAtRevision1() {
    const created = await api('POST', '/v1/notes', { content: 'first' });
    const path = `/v1/notes/${created.body.id}`;
    const put = await api('PUT', path, { content: 'kept' }, { 'if-match': '"0"' });
    expect(put.status, put.text).to.equal(200);
    return path;
  }

  it('answers 400 for a value that lists no entity tag, for a write and a read, and writes nothing', async () => {
    const path = await noteAtRevision1();
    for (const ifMatch of ['garbage', 'W/x', '"1"x', 'abc, "1"', '"1" "2"', "'1'"]) {
      const put = await api('PUT', path, { content: 'lost' }, { 'if-match': ifMatch });
      expect(put.status, `${ifMatch}: ${put.text}`).to.equal(400);
      expect(put.body, ifMatch).to.deep.equal({ error: malformed(ifMatch) });
      const get = await api('GET', path, undefined, { 'if-match': ifMatch });
      expect(get.status, `GET ${ifMatch}: ${get.text}`).to.equal(400);
    }
    const after = await api('GET', path);
    expect(after.body).to.include({ content: 'kept', revision: 1 });
  });

  it('answers 400 for a malformed If-Match before looking for the note', async () => {
    const missing = '/v1/notes/00000000-0000-4000-8000-000000000000';
    const res = await api('PUT', missing, { content: 'x' }, { 'if-match': 'garbage' });
    expect(res.status, res.text).to.equal(400);
  });

  it('answers 412 "holds no entity tag of this note" for a tag it never had, "changed" for a stale one', async () => {
    const path = await noteAtRevision1();
    const etag = (await api('GET', path)).headers.get('etag');
    for (const ifMatch of ['"draft"', '"7"', '"00"', 'W/"1", "x"']) {
      const res = await api('PUT', path, { content: 'lost' }, { 'if-match': ifMatch });
      expect(res.status, `${ifMatch}: ${res.text}`).to.equal(412);
      expect(res.body, ifMatch).to.deep.equal({
        error: `If-Match ${ifMatch} holds no entity tag of this note, which is at revision 1 (current ETag ${etag}); send the ETag as read`,
      });
    }
    // a revision the note has left behind: it has changed since that tag was read
    const stale = await api('PUT', path, { content: 'lost' }, { 'if-match': '"0"' });
    expect(stale.status, stale.text).to.equal(412);
    expect(stale.body).to.deep.equal({
      error: `the note has changed since it was read (If-Match "0", current ETag ${etag}); read it again`,
    });
  });
});
