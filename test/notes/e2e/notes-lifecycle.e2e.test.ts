/**
 * The notes API end to end over real HTTP: a note created with tags and capture context, a
 * retried create, replaced versions and their history pages, delete and restore.
 */
import { expect } from 'chai';
import { etagAt, type Json, type Api, signedInNotesApi } from './support.js';

describe('Notes API over HTTP', function () {
  this.timeout(30_000);
  const api = signedInNotesApi();

  describe('When a note is created with tags and capture context', () => {
    let created: Json;
    let res: Awaited<ReturnType<Api>>;
    before(async () => {
      res = await api('POST', '/v1/notes', {
        title: 'Harbour walk',
        content: 'Fog over the water at dawn',
        tags: ['walks', 'Photos'],
        metadata: { latitude: 48.8566, longitude: 2.3522, device: 'Pixel 8' },
      });
      created = res.body;
    });

    it('answers 201 with the note, its ETag and its Location', () => {
      expect(res.status).to.equal(201);
      expect(res.headers.get('etag')).to.match(etagAt(created.revision));
      expect(res.headers.get('location')).to.equal(`/v1/notes/${created.id}`);
      expect(created).to.include({ title: 'Harbour walk', content: 'Fog over the water at dawn' });
      expect(created.deletedAt).to.equal(null);
    });

    it('creates the unknown tags and the device, and names the place', async () => {
      // spec: "unknown tag names and the device name are created"; "the note also gets a place name"
      expect(created.tags.map((t: Json) => t.name)).to.deep.equal(['walks', 'Photos']);
      expect(created.metadata).to.include({ device: 'Pixel 8', latitude: 48.8566 });
      expect(created.metadata.placeName).to.match(/Paris/);
      const tags = (await api('GET', '/v1/tags')).body.tags.map((t: Json) => t.name);
      expect(tags).to.include.members(['walks', 'Photos']);
      const devices = (await api('GET', '/v1/devices')).body.devices;
      expect(devices.map((d: Json) => [d.name, d.platform])).to.deep.include([
        'Pixel 8',
        'unknown',
      ]);
    });

    it('reads back the same note with an ETag', async () => {
      const got = await api('GET', `/v1/notes/${created.id}`);
      expect(got.status).to.equal(200);
      expect(got.body).to.deep.equal(created);
      expect(got.headers.get('etag')).to.match(etagAt(created.revision));
    });
  });

  describe('When a create is retried with the same Idempotency-Key', () => {
    it('answers with the first note and creates no second one', async () => {
      const key = `retry-${Date.now()}`;
      const first = await api('POST', '/v1/notes', { content: 'once' }, { 'idempotency-key': key });
      const again = await api('POST', '/v1/notes', { content: 'once' }, { 'idempotency-key': key });
      expect(first.status).to.equal(201);
      expect(again.status).to.equal(201);
      expect(again.body.id).to.equal(first.body.id);
      const all = (await api('GET', '/v1/notes?limit=100')).body.notes;
      expect(all.filter((n: Json) => n.content === 'once')).to.have.length(1);
    });

    it('answers a retried tag or device create with the first one, not 409 for its own name', async () => {
      // README: "a retry with the same Idempotency-Key returns the first result … That holds for
      // every write"; a named create used to meet its own first attempt as a taken name
      for (const [path, body] of [
        ['/v1/tags', { name: 'Retried tag', color: 1 }],
        ['/v1/devices', { name: 'Retried phone', platform: 'android' }],
      ] as const) {
        const key = `named-${path}-${Date.now()}`;
        const first = await api('POST', path, body, { 'idempotency-key': key });
        const again = await api('POST', path, body, { 'idempotency-key': key });
        expect(first.status, JSON.stringify(first.body)).to.equal(201);
        expect(again.status, JSON.stringify(again.body)).to.equal(201);
        expect(again.body).to.deep.equal(first.body);
        // without the key, or with another one, the name is still taken
        expect((await api('POST', path, body)).status).to.equal(409);
        expect((await api('POST', path, body, { 'idempotency-key': `${key}-b` })).status).to.equal(
          409,
        );
      }
    });
  });

  describe('When a note is replaced three times', () => {
    it('keeps three archived versions, newest first, each equal to what was there before', async () => {
      // spec: "the replaced version is archived first and readable from the history endpoint"
      const first = (await api('POST', '/v1/notes', { title: 'v0', content: 'zero', tags: ['h0'] }))
        .body;
      const seen = [first];
      for (let i = 1; i <= 3; i++) {
        const put = await api('PUT', `/v1/notes/${first.id}`, {
          title: `v${i}`,
          content: `version ${i}`,
          ...(i === 2 ? { tags: ['h2'], metadata: { device: 'Laptop' } } : {}),
        });
        expect(put.status).to.equal(200);
        seen.push(put.body);
      }
      const history = await api('GET', `/v1/notes/${first.id}/history`);
      expect(history.status).to.equal(200);
      const versions = history.body.versions;
      expect(versions).to.have.length(3);
      const before = seen.slice(0, 3).reverse();
      versions.forEach((v: Json, i: number) => {
        const was = before[i];
        expect({
          title: v.title,
          content: v.content,
          tags: v.tags,
          metadata: v.metadata,
        }).to.deep.equal({
          title: was.title,
          content: was.content,
          tags: was.tags,
          metadata: was.metadata,
        });
        expect(v.revision).to.equal(was.revision);
      });
      // tags not sent on PUT 3 were kept from PUT 2
      expect(seen[3].tags.map((t: Json) => t.name)).to.deep.equal(['h2']);
    });
  });

  describe('When a note has more versions than one history page holds', () => {
    it('pages them newest first with a signed token, none left out or repeated', async () => {
      // security audit: a note PUT 300 times with 100 KB made a 30 MB history answer; at most
      // `limit` versions (default and most 100) per answer, nextPageToken for the older ones
      const note = (await api('POST', '/v1/notes', { content: 'p0' })).body;
      for (let i = 1; i <= 5; i++) {
        expect((await api('PUT', `/v1/notes/${note.id}`, { content: `p${i}` })).status).to.equal(
          200,
        );
      }
      const pages: string[][] = [];
      let token: string | null = null;
      do {
        const query: string = token ? `&pageToken=${encodeURIComponent(token)}` : '';
        const page = await api('GET', `/v1/notes/${note.id}/history?limit=2${query}`);
        expect(page.status).to.equal(200);
        pages.push(page.body.versions.map((v: Json) => v.content));
        token = page.body.nextPageToken;
      } while (token);
      expect(pages).to.deep.equal([['p4', 'p3'], ['p2', 'p1'], ['p0']]);
      const whole = await api('GET', `/v1/notes/${note.id}/history`);
      expect(whole.body.versions).to.have.length(5);
      expect(whole.body.nextPageToken).to.equal(null);
      expect((await api('GET', `/v1/notes/${note.id}/history?limit=101`)).status).to.equal(400);
      const other = (await api('POST', '/v1/notes', { content: 'o0' })).body;
      const first = await api('GET', `/v1/notes/${note.id}/history?limit=1`);
      const foreign = `/v1/notes/${other.id}/history?pageToken=${encodeURIComponent(first.body.nextPageToken)}`;
      expect((await api('GET', foreign)).status, 'a token of another note').to.equal(400);
    });
  });

  describe('When a note is deleted and restored', () => {
    it('answers 204 with no body, lists it only with includeDeleted, and restores it', async () => {
      // spec: "moves the note to trash; 204, no body"
      const note = (await api('POST', '/v1/notes', { content: 'to the bin' })).body;
      const del = await api('DELETE', `/v1/notes/${note.id}`);
      expect(del.status).to.equal(204);
      expect(del.text).to.equal('');
      const trashed = (await api('GET', `/v1/notes/${note.id}`)).body;
      expect(trashed.deletedAt).to.be.a('string');
      const active = (await api('GET', '/v1/notes?limit=100')).body.notes.map((n: Json) => n.id);
      expect(active).to.not.include(note.id);
      const all = (await api('GET', '/v1/notes?limit=100&includeDeleted=true')).body.notes;
      expect(all.map((n: Json) => n.id)).to.include(note.id);
      expect((await api('PUT', `/v1/notes/${note.id}`, { content: 'x' })).status).to.equal(409);

      const restored = await api('POST', `/v1/notes/${note.id}/restore`);
      expect(restored.status).to.equal(200);
      expect(restored.body.deletedAt).to.equal(null);
      expect(restored.headers.get('etag')).to.match(etagAt(restored.body.revision));
    });
  });
});
