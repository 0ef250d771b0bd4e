/**
 * If-None-Match on the notes creates (create_note, create_tag, register_device) over real HTTP.
 * A create targets its collection (`/v1/notes`, `/v1/tags`, `/v1/devices`), which exists and
 * carries no ETag (the one a create answers is the new resource's). RFC 9110 §13.1.2: "If the
 * field value is "*", the condition is false if the origin server has a current representation
 * for the target resource", and "An origin server MUST NOT perform the requested method if the
 * condition evaluates to false; instead, the origin server MUST respond with ... the 412
 * (Precondition Failed) status code for all other request methods". A list of tags cannot match
 * a resource without one, so it holds and the create goes ahead. The creates ignored `*`.
 */
import { expect } from 'chai';
import { signedInNotesApi } from './support.js';

const REFUSAL =
  'this resource exists, so If-None-Match * cannot hold (RFC 9110 §13.1.2; the resource of a create is the collection it adds to); send the request without If-None-Match';

describe('When a notes create carries If-None-Match (e2e)', function () {
  this.timeout(30_000);
  const api = signedInNotesApi('dora@example.com');

  const creates: [string, string, Record<string, unknown>][] = [
    [
      'create_note',
      '/v1/notes',
      { content: 'only if new', tags: ['inm-tag'], metadata: { device: 'Inm phone' } },
    ],
    ['create_tag', '/v1/tags', { name: 'inm-only-tag' }],
    ['register_device', '/v1/devices', { name: 'Inm tablet', platform: 'android' }],
  ];

  for (const [id, path, body] of creates) {
    it(`refuses ${id} under If-None-Match: * with 412, creating nothing; a list of tags creates`, async () => {
      const feed = (await api('GET', '/v1/sync')).body.cursor;
      const conditions: Record<string, string>[] = [
        { 'if-none-match': '*' },
        { 'if-none-match': '*', 'if-match': '*' },
      ];
      for (const headers of conditions) {
        const res = await api('POST', path, body, headers);
        expect(res.status, `${JSON.stringify(headers)}: ${res.text}`).to.equal(412);
        expect(res.body).to.deep.equal({ error: REFUSAL });
      }
      // nothing was written: no note, tag or device change in the sync feed
      const changes = await api('GET', `/v1/sync?cursor=${feed}`);
      expect(changes.body.changes, changes.text).to.deep.equal([]);
      const listed = await api('POST', path, body, { 'if-none-match': '"1", W/"2"' });
      expect(listed.status, listed.text).to.equal(201);
    });
  }
});
