/**
 * The notes API end to end over real HTTP: malformed requests, bounds at their edge and the
 * error envelope.
 */
import { expect } from 'chai';
import { signedInNotesApi } from './support.js';

describe('Notes API over HTTP', function () {
  this.timeout(30_000);
  const api = signedInNotesApi();

  describe('When a request is malformed', () => {
    const cases: [string, string, string, unknown?, number?][] = [
      ['content missing', 'POST', '/v1/notes', { title: 'no content' }],
      ['content empty', 'POST', '/v1/notes', { content: '' }],
      ['unknown field', 'POST', '/v1/notes', { content: 'x', colour: 'red' }],
      ['placeName sent', 'POST', '/v1/notes', { content: 'x', metadata: { placeName: 'X' } }],
      [
        'latitude 90.0001',
        'POST',
        '/v1/notes',
        { content: 'x', metadata: { latitude: 90.0001, longitude: 0 } },
      ],
      [
        'latitude -90.5',
        'POST',
        '/v1/notes',
        { content: 'x', metadata: { latitude: -90.5, longitude: 0 } },
      ],
      [
        'longitude 180.5',
        'POST',
        '/v1/notes',
        { content: 'x', metadata: { latitude: 0, longitude: 180.5 } },
      ],
      [
        'latitude without longitude',
        'POST',
        '/v1/notes',
        { content: 'x', metadata: { latitude: 1 } },
      ],
      ['title too long', 'POST', '/v1/notes', { title: 't'.repeat(501), content: 'x' }],
      ['tag name empty', 'POST', '/v1/notes', { content: 'x', tags: [' '] }],
      ['limit 0', 'GET', '/v1/notes?limit=0'],
      ['limit 101', 'GET', '/v1/notes?limit=101'],
      ['limit 2.5', 'GET', '/v1/notes?limit=2.5'],
      ['tampered pageToken', 'GET', '/v1/notes?pageToken=abc.def'],
      ['search without q', 'GET', '/v1/notes/search'],
      ['search q blank', 'GET', '/v1/notes/search?q=%20'],
      ['search q 501 chars', 'GET', `/v1/notes/search?q=${'a'.repeat(501)}`],
      ['search limit 0', 'GET', '/v1/notes/search?q=x&limit=0'],
      ['search limit 21', 'GET', '/v1/notes/search?q=x&limit=21'],
      ['tag name missing', 'POST', '/v1/tags', { color: 1 }],
      ['tag color 12', 'POST', '/v1/tags', { name: 'c', color: 12 }],
      ['tag color -1', 'POST', '/v1/tags', { name: 'c', color: -1 }],
      ['tag color hex', 'POST', '/v1/tags', { name: 'c', color: '#ff0000' }],
      ['tag name 101 chars', 'POST', '/v1/tags', { name: 'n'.repeat(101) }],
      ['unknown parent', 'POST', '/v1/tags', { name: 'orphan', parentId: 'missing' }],
      ['device platform missing', 'POST', '/v1/devices', { name: 'Phone' }],
      ['device name missing', 'POST', '/v1/devices', { platform: 'ios' }],
      ['device name 101 chars', 'POST', '/v1/devices', { name: 'd'.repeat(101), platform: 'ios' }],
      ['sync limit 501', 'GET', '/v1/sync?limit=501'],
      ['malformed JSON', 'POST', '/v1/notes', '{"content":'],
    ];
    for (const [name, method, url, body, status = 400] of cases) {
      it(`answers ${status} {error} for ${name}`, async () => {
        // spec: "Errors are JSON {error: string} ... with the matching HTTP status"
        const res = await api(method, url, body);
        expect(res.status, res.text).to.equal(status);
        expect(Object.keys(res.body)).to.deep.equal(['error']);
        expect(res.body.error).to.be.a('string').and.not.equal('');
      });
    }

    it('names the field at fault, also inside metadata and tags', async () => {
      // the message is what a client acts on: a nested object is not "the request body", an
      // element of a list is named by its index, a rule across fields says where it applies
      const cases: [unknown, string][] = [
        [{ content: 'x', metadata: 'Pixel 8' }, 'metadata must be an object, not a string'],
        [
          { content: 'x', metadata: { latitude: 1 } },
          'metadata: latitude and longitude must be given together',
        ],
        [{ content: 'x', tags: ['ok', ' '] }, 'tags[1] must not be empty'],
      ];
      for (const [body, message] of cases) {
        const res = await api('POST', '/v1/notes', body);
        expect(res.status, res.text).to.equal(400);
        expect(res.body, JSON.stringify(body)).to.deep.equal({ error: message });
      }
    });

    it('accepts every bound at its edge', async () => {
      const edge = await api('POST', '/v1/notes', {
        title: 't'.repeat(500),
        content: 'c',
        metadata: { latitude: -90, longitude: 180 },
      });
      expect(edge.status, edge.text).to.equal(201);
      // the other pole and the other side of the antimeridian, and as many tags as OpenAPI allows
      const corner = await api('POST', '/v1/notes', {
        content: 'c',
        tags: Array.from({ length: 100 }, (_, i) => `edge-${i}`),
        metadata: { latitude: 90, longitude: -180 },
      });
      expect(corner.status, corner.text).to.equal(201);
      expect(corner.body.tags).to.have.length(100);
      expect((await api('POST', '/v1/tags', { name: 'n'.repeat(100), color: 11 })).status).to.equal(
        201,
      );
      expect((await api('POST', '/v1/tags', { name: 'zero', color: 0 })).status).to.equal(201);
      for (const url of [
        '/v1/notes?limit=1',
        '/v1/notes?limit=100',
        '/v1/notes/search?q=a&limit=1',
        `/v1/notes/search?q=${'a'.repeat(500)}&limit=20`,
        '/v1/sync?limit=500',
      ]) {
        expect((await api('GET', url)).status, url).to.equal(200);
      }
      expect((await api('GET', '/v1/notes')).body.notes.length).to.be.at.most(20);
    });

    it('answers 415 for a body that is not JSON and 404 {error} for unknown routes', async () => {
      const res = await api('POST', '/v1/notes', 'content=x', { 'content-type': 'text/plain' });
      expect(res.status).to.equal(415);
      const missing = await api('GET', '/v1/nothing-here');
      expect(missing.status).to.equal(404);
      expect(Object.keys(missing.body)).to.deep.equal(['error']);
      expect((await api('GET', '/v1/notes/not-a-note')).status).to.equal(404);
    });
  });
});
