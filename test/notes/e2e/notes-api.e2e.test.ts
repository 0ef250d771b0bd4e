/**
 * The notes API end to end over real HTTP: notes, history, If-Match, trash and restore, tags on
 * notes, tags, devices, the sync feed, and the error envelope.
 */
import { expect } from 'chai';
import {
  type Api,
  etagAt,
  type NotesE2e,
  revisionIn,
  startNotesE2e,
  type Json,
} from './support.js';

describe('Notes API over HTTP', function () {
  this.timeout(30_000);
  let e: NotesE2e;
  let api: Api;

  before(async () => {
    e = await startNotesE2e();
    api = e.api((await e.signIn('ada@example.com')).token);
  });
  after(async () => e.stop());

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

  describe('When two clients edit the same note', () => {
    it('refuses the stale If-Match with 412 and accepts the current one', async () => {
      const note = (await api('POST', '/v1/notes', { content: 'draft' })).body;
      const etag = `"${note.revision}"`;
      const winner = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'mine' },
        { 'if-match': etag },
      );
      expect(winner.status).to.equal(200);
      const loser = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'theirs' },
        { 'if-match': etag },
      );
      expect(loser.status).to.equal(412);
      expect(Object.keys(loser.body)).to.deep.equal(['error']);
      const staleDelete = await api('DELETE', `/v1/notes/${note.id}`, undefined, {
        'if-match': etag,
      });
      expect(staleDelete.status).to.equal(412);
      const notATag = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'x' },
        { 'if-match': 'W/"1"' },
      );
      expect(notATag.status).to.equal(412);
      const star = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'star' },
        { 'if-match': '*' },
      );
      expect(star.status).to.equal(200);
      expect((await api('GET', `/v1/notes/${note.id}`)).body.content).to.equal('star');
      // the current tag without its quotes is that tag, not "changed since it was read"
      const current = (await api('GET', `/v1/notes/${note.id}`)).headers.get('etag')!;
      const unquoted = current.replaceAll('"', '');
      const bare = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'bare' },
        { 'if-match': unquoted },
      );
      expect(bare.status, JSON.stringify(bare.body)).to.equal(200);
      const staleBare = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'stale' },
        { 'if-match': unquoted },
      );
      expect(staleBare.status).to.equal(412);
      const listed = await api(
        'PUT',
        `/v1/notes/${note.id}`,
        { content: 'list' },
        {
          'if-match': `"999", ${Number(revisionIn(`"${unquoted}"`)) + 1}`,
        },
      );
      expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
    });
  });

  describe('When a client reads again with If-None-Match', () => {
    it('answers 304 without a body while the ETag holds, and the note once it changed', async () => {
      // RFC 9110 §13.1.2: an origin server evaluates If-None-Match; GET/HEAD get 304 (notes audit)
      const created = await api('POST', '/v1/notes', { content: 'cached' });
      const note = created.body;
      const path = `/v1/notes/${note.id}`;
      const tag = created.headers.get('etag')!;
      for (const header of [tag, `W/${tag}`, `"7", ${tag}`, '*']) {
        const same = await api('GET', path, undefined, { 'if-none-match': header });
        expect(same.status, header).to.equal(304);
        expect(same.text, header).to.equal('');
        expect(same.headers.get('etag')).to.equal(tag);
      }
      const head = await api('HEAD', path, undefined, { 'if-none-match': tag });
      expect(head.status).to.equal(304);
      const other = await api('GET', path, undefined, { 'if-none-match': '"999"' });
      expect(other.status).to.equal(200);
      expect(other.body.content).to.equal('cached');
      await api('PUT', path, { content: 'changed' });
      const changed = await api('GET', path, undefined, { 'if-none-match': tag });
      expect(changed.status).to.equal(200);
      expect(changed.body.content).to.equal('changed');
    });

    // DX audit: the note shows its tags' and device's names, which change without a new
    // revision of the note; a 304 kept the old names in the client's cache (RFC 9110 §8.8.1:
    // a validator changes whenever the representation does)
    it('answers the note again once a tag or device it shows was renamed, at the same revision', async () => {
      const created = await api('POST', '/v1/notes', {
        content: 'tagged',
        tags: ['etag-tag'],
        metadata: { device: 'etag-device' },
      });
      const path = `/v1/notes/${created.body.id}`;
      const first = created.headers.get('etag')!;
      expect((await api('GET', path, undefined, { 'if-none-match': first })).status).to.equal(304);
      await api('PUT', `/v1/tags/${created.body.tags[0].id}`, { name: 'etag-renamed' });
      const renamed = await api('GET', path, undefined, { 'if-none-match': first });
      expect(renamed.status).to.equal(200);
      expect(renamed.body.tags[0].name).to.equal('etag-renamed');
      expect(revisionIn(renamed.headers.get('etag'))).to.equal(revisionIn(first));
      const devices = (await api('GET', '/v1/devices')).body.devices as {
        id: string;
        name: string;
      }[];
      const device = devices.find((d) => d.name === 'etag-device')!;
      await api('PUT', `/v1/devices/${device.id}`, { name: 'etag-device-2' });
      const moved = await api('GET', path, undefined, {
        'if-none-match': renamed.headers.get('etag')!,
      });
      expect(moved.status).to.equal(200);
      // If-Match guards the note's own content: the rename does not make the first ETag stale
      const edited = await api('PUT', path, { content: 'edited' }, { 'if-match': first });
      expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    });
  });

  describe('When many clients replace the same note at once, without If-Match', () => {
    it('answers each with the note as its own write left it, and that revision as the ETag', async () => {
      // RFC 9110 §8.8.3: a validator sent with a write's answer reflects what that write saved;
      // answering the note as a later write left it gave one client another's title and ETag
      const note = (await api('POST', '/v1/notes', { content: 'start' })).body;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api('PUT', `/v1/notes/${note.id}`, { title: `C${i}`, content: `content ${i}` }),
        ),
      );
      const revisions = new Set<number>();
      for (const [i, res] of answers.entries()) {
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.include({ title: `C${i}`, content: `content ${i}` });
        expect(res.headers.get('etag')).to.match(etagAt(res.body.revision));
        revisions.add(res.body.revision);
      }
      expect(revisions.size).to.equal(20);
      // each answer is the version history keeps for that revision (or the current note)
      const current = (await api('GET', `/v1/notes/${note.id}`)).body;
      const history = (await api('GET', `/v1/notes/${note.id}/history`)).body.versions as {
        revision: number;
        title: string;
      }[];
      for (const res of answers) {
        const kept =
          res.body.revision === current.revision
            ? current
            : history.find((v) => v.revision === res.body.revision);
        expect(kept?.title, `revision ${res.body.revision}`).to.equal(res.body.title);
      }
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

  describe('When tags are added to and removed from a note', () => {
    it('adds an existing tag, removes it with 204, and 404s an unknown tag', async () => {
      const tag = (await api('POST', '/v1/tags', { name: 'Errands', color: 3 })).body;
      const note = (await api('POST', '/v1/notes', { content: 'buy stamps' })).body;
      const added = await api('POST', `/v1/notes/${note.id}/tags/${tag.id}`);
      expect(added.status).to.equal(200);
      expect(added.body.tags).to.deep.equal([
        { id: tag.id, name: 'Errands', color: 3, parentId: null },
      ]);
      const removed = await api('DELETE', `/v1/notes/${note.id}/tags/${tag.id}`);
      expect(removed.status).to.equal(204);
      expect(removed.text).to.equal('');
      expect((await api('GET', `/v1/notes/${note.id}`)).body.tags).to.deep.equal([]);
      expect((await api('POST', `/v1/notes/${note.id}/tags/nope`)).status).to.equal(404);
    });
  });

  describe('When tags are managed', () => {
    it('creates nested tags, updates, soft-deletes with 204 and keeps note associations', async () => {
      const parent = await api('POST', '/v1/tags', { name: 'Work' });
      expect(parent.status).to.equal(201);
      const child = await api('POST', '/v1/tags', {
        name: 'Meetings',
        parentId: parent.body.id,
        color: 0,
      });
      expect(child.status).to.equal(201);
      expect(child.body).to.include({ parentId: parent.body.id, color: 0, deletedAt: null });
      // no cycles: the parent cannot move under its own child
      const cycle = await api('PUT', `/v1/tags/${parent.body.id}`, { parentId: child.body.id });
      expect(cycle.status).to.equal(400);
      const renamed = await api('PUT', `/v1/tags/${child.body.id}`, { name: 'Standups' });
      expect(renamed.status).to.equal(200);
      expect(renamed.body).to.include({ name: 'Standups', color: 0, parentId: parent.body.id });
      expect((await api('POST', '/v1/tags', { name: 'work' })).status).to.equal(409);

      const note = (
        await api('POST', '/v1/notes', { content: 'sprint review', tags: ['Standups'] })
      ).body;
      const del = await api('DELETE', `/v1/tags/${child.body.id}`);
      expect(del.status).to.equal(204);
      expect(del.text).to.equal('');
      // spec: "existing note associations are left alone"
      expect(
        (await api('GET', `/v1/notes/${note.id}`)).body.tags.map((t: Json) => t.id),
      ).to.deep.equal([child.body.id]);
      const listed = (await api('GET', '/v1/tags')).body.tags.map((t: Json) => t.id);
      expect(listed).to.not.include(child.body.id);
      expect((await api('GET', `/v1/tags/${child.body.id}`)).body.deletedAt).to.be.a('string');
      // a deleted tag is still readable, so adding it to a note is a conflict (as PUT on it is),
      // not "not found"; removing it from the note it is on still works
      const other = (await api('POST', '/v1/notes', { content: 'retro' })).body;
      const added = await api('POST', `/v1/notes/${other.id}/tags/${child.body.id}`);
      expect(added.status).to.equal(409);
      expect(added.body).to.deep.equal({ error: 'tag is deleted' });
      expect((await api('PUT', `/v1/tags/${child.body.id}`, { name: 'x' })).status).to.equal(409);
      expect((await api('DELETE', `/v1/notes/${note.id}/tags/${child.body.id}`)).status).to.equal(
        204,
      );
    });
  });

  describe('When devices are managed', () => {
    it('registers, reads, renames and refuses a duplicate name', async () => {
      const reg = await api('POST', '/v1/devices', { name: 'iPad', platform: 'ios' });
      expect(reg.status).to.equal(201);
      expect(reg.body).to.include({ name: 'iPad', platform: 'ios' });
      expect((await api('GET', `/v1/devices/${reg.body.id}`)).body).to.deep.equal(reg.body);
      const renamed = await api('PUT', `/v1/devices/${reg.body.id}`, { name: 'Kitchen iPad' });
      expect(renamed.status).to.equal(200);
      expect(renamed.body).to.include({ name: 'Kitchen iPad', platform: 'ios' });
      expect(
        (await api('POST', '/v1/devices', { name: 'kitchen ipad', platform: 'ios' })).status,
      ).to.equal(409);
      expect((await api('GET', '/v1/devices/unknown-device')).status).to.equal(404);
    });
  });

  describe('When a device follows the sync feed', () => {
    it('returns creates, updates, trashes and restores in order, then continues from the cursor', async () => {
      const start = (await api('GET', '/v1/sync')).body;
      expect(start.resyncRequired).to.equal(false);
      let cursor = start.cursor;
      for (let more = start.hasMore; more; ) {
        const page = (await api('GET', `/v1/sync?cursor=${cursor}&limit=500`)).body;
        cursor = page.cursor;
        more = page.hasMore;
      }
      const note = (await api('POST', '/v1/notes', { content: 'synced' })).body;
      await api('PUT', `/v1/notes/${note.id}`, { content: 'synced again' });
      await api('DELETE', `/v1/notes/${note.id}`);
      await api('POST', `/v1/notes/${note.id}/restore`);
      const page = await api('GET', `/v1/sync?cursor=${cursor}`);
      expect(page.status).to.equal(200);
      expect(page.body.changes.map((c: Json) => [c.noteId, c.change])).to.deep.equal([
        [note.id, 'created'],
        [note.id, 'updated'],
        [note.id, 'trashed'],
        [note.id, 'restored'],
      ]);
      const seqs = page.body.changes.map((c: Json) => c.seq);
      expect(seqs).to.deep.equal([...seqs].sort((a, b) => a - b));
      expect(page.body.changes[0].note.content).to.equal('synced again');
      const after = (await api('GET', `/v1/sync?cursor=${page.body.cursor}`)).body;
      expect(after).to.include({ resyncRequired: false, hasMore: false });
      expect(after.changes).to.deep.equal([]);
    });

    it('answers resync required with a fresh cursor for a cursor it did not issue', async () => {
      const res = await api('GET', '/v1/sync?cursor=bm90LWEtY3Vyc29y');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ resyncRequired: true, reason: 'unknown' });
      expect(res.body.changes).to.equal(undefined);
      const fresh = await api('GET', `/v1/sync?cursor=${res.body.cursor}`);
      expect(fresh.body).to.include({ resyncRequired: false });
    });
  });

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
