/**
 * An empty If-Match (or one of commas only) over real HTTP: it lists no entity tag, so nothing can
 * match and the request is refused with 412 (RFC 9110 §13.1.1: If-Match = "*" / #entity-tag;
 * "An origin server MUST NOT perform the requested method if a received If-Match condition
 * evaluates to false"), but the message must say what is wrong: the header is empty. It used to
 * say the header "names only weak tags", which a client that sent no tag cannot act on.
 */
import { expect } from 'chai';
import { signedInNotesApi } from './support.js';

const emptyRefusal = (etag: string) =>
  `If-Match is empty, so no tag can match (RFC 9110 §13.1.1); send the ETag as read, or no If-Match, current ETag ${etag}`;

describe('When a notes request carries an empty If-Match (e2e)', function () {
  this.timeout(30_000);
  const api = signedInNotesApi('elif@example.com');

  it('refuses a note write and read with 412 saying the header is empty, writing nothing', async () => {
    const note = (await api('POST', '/v1/notes', { content: 'kept' })).body;
    const path = `/v1/notes/${note.id}`;
    const etag = (await api('GET', path)).headers.get('etag')!;
    for (const [method, body] of [
      ['PUT', { content: 'lost?' }],
      ['DELETE', undefined],
      ['GET', undefined],
    ] as const) {
      for (const ifMatch of ['', ' , ']) {
        const res = await api(method, path, body, { 'if-match': ifMatch });
        expect(res.status, `${method} ${JSON.stringify(ifMatch)}: ${res.text}`).to.equal(412);
        // the errors envelope: {error: string}
        expect(res.body).to.deep.equal({ error: emptyRefusal(etag) });
      }
    }
    const after = await api('GET', path);
    expect(after.body).to.include({ content: 'kept', deletedAt: null, revision: 0 });
  });

  it('says the same for a tag and a device', async () => {
    const tag = (await api('POST', '/v1/tags', { name: 'empty-if-match' })).body;
    const device = (await api('POST', '/v1/devices', { name: 'Tablet', platform: 'android' })).body;
    for (const [path, body] of [
      [`/v1/tags/${tag.id}`, { name: 'renamed' }],
      [`/v1/devices/${device.id}`, { name: 'Renamed' }],
    ] as const) {
      const etag = (await api('GET', path)).headers.get('etag')!;
      const res = await api('PUT', path, body, { 'if-match': '' });
      expect(res.status, res.text).to.equal(412);
      expect(res.body).to.deep.equal({ error: emptyRefusal(etag) });
    }
  });

  it('says the header is empty on an operation without an ETag too (list_notes)', async () => {
    const res = await api('GET', '/v1/notes', undefined, { 'if-match': '' });
    expect(res.status, res.text).to.equal(412);
    expect(res.body).to.deep.equal({
      error:
        'this resource carries no ETag and If-Match is empty, so it cannot match (RFC 9110 §13.1.1); send the request without If-Match',
    });
  });
});
