/**
 * If-Match on the notes creates (create_note, create_tag, register_device) over real HTTP. A
 * create targets its collection (`/v1/notes`, `/v1/tags`, `/v1/devices`), which carries no ETag:
 * RFC 9110 §13.1.1, "the condition is true if any of the listed tags match the entity tag of the
 * selected representation", so no listed tag can hold and "An origin server MUST NOT perform the
 * requested method if a received If-Match condition evaluates to false"; README: "Any other
 * operation ... carries no ETag: an If-Match other than `*` cannot hold ... and the request is
 * refused with 412". `*` holds: the collection exists. The creates ignored the header and created.
 */
import { expect } from 'chai';
import { signedInNotesApi } from './support.js';

const refusal = (ifMatch: string) =>
  `this resource carries no ETag, so If-Match ${ifMatch} cannot match (RFC 9110 §13.1.1); send the request without If-Match`;

describe('When a notes create carries If-Match (e2e)', function () {
  this.timeout(30_000);
  const api = signedInNotesApi('cora@example.com');

  const creates: [string, string, Record<string, unknown>][] = [
    [
      'create_note',
      '/v1/notes',
      { content: 'guarded', tags: ['fresh-tag'], metadata: { device: 'Fresh phone' } },
    ],
    ['create_tag', '/v1/tags', { name: 'guarded-tag' }],
    ['register_device', '/v1/devices', { name: 'Guarded tablet', platform: 'android' }],
  ];

  for (const [id, path, body] of creates) {
    it(`refuses ${id} with If-Match "0" or a note's ETag with 412, creating nothing`, async () => {
      const feed = (await api('GET', '/v1/sync')).body.cursor;
      for (const ifMatch of ['"0"', '0', '"0.AAAAAAAAAAA"']) {
        const res = await api('POST', path, body, { 'if-match': ifMatch });
        expect(res.status, `${ifMatch}: ${res.text}`).to.equal(412);
        expect(res.body).to.deep.equal({ error: refusal(ifMatch) });
      }
      // nothing was written: no note, tag or device change in the sync feed
      const changes = await api('GET', `/v1/sync?cursor=${feed}`);
      expect(changes.body.changes, changes.text).to.deep.equal([]);
    });
  }

  it('creates with If-Match * (the collection exists), as without If-Match', async () => {
    const res = await api('POST', '/v1/notes', { content: 'star' }, { 'if-match': '*' });
    expect(res.status, res.text).to.equal(201);
    const tag = await api('POST', '/v1/tags', { name: 'star-tag' }, { 'if-match': '*' });
    expect(tag.status, tag.text).to.equal(201);
  });
});
