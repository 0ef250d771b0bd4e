/**
 * If-None-Match `*` on the notes reads that carry no ETag (list_notes, list_tags, list_devices,
 * get_note_history), over real HTTP. RFC 9110 §13.1.2: "If the field value is "*", the condition
 * is false if the origin server has a current representation for the target resource", and then
 * "the origin server MUST respond with either a) the 304 (Not Modified) status code if the
 * request method is GET or HEAD": a list or a note's history is such a representation, ETag or
 * none. §13.2.1: a missing note's history answers 404. §15.4.5: the 304 carries the
 * Cache-Control, Vary and ETag the 200 would, and no body.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { signedInNotesApi } from './support.js';

const CACHE_FIELDS = ['cache-control', 'vary', 'etag', 'content-location', 'expires'];

describe('When a notes read without an ETag carries If-None-Match: *', function () {
  this.timeout(30_000);
  const api = signedInNotesApi('ines@example.com');
  const star = { 'if-none-match': '*' };
  const cacheFields = (headers: Headers) => CACHE_FIELDS.map((name) => headers.get(name));

  it('answers GET and HEAD 304 without a body and with the 200’s cache headers', async () => {
    const note = (await api('POST', '/v1/notes', { content: 'kept', tags: ['inm'] })).body;
    for (const path of ['/v1/notes', '/v1/tags', '/v1/devices', `/v1/notes/${note.id}/history`]) {
      const full = await api('GET', path);
      expect(full.status, path).to.equal(200);
      for (const method of ['GET', 'HEAD']) {
        const res = await api(method, path, undefined, star);
        expect(res.status, `${method} ${path}`).to.equal(304);
        expect(res.text, `${method} ${path}`).to.equal('');
        expect(cacheFields(res.headers), path).to.deep.equal(cacheFields(full.headers));
      }
    }
  });

  it('answers the history of a missing note 404, not 304', async () => {
    const res = await api('GET', `/v1/notes/${randomUUID()}/history`, undefined, star);
    expect(res.status, res.text).to.equal(404);
  });

  it('answers the list when If-None-Match lists tags, none of which can match', async () => {
    const res = await api('GET', '/v1/notes', undefined, { 'if-none-match': '"1"' });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.notes.length).to.be.greaterThan(0);
  });
});
