/**
 * The notes API end to end over real HTTP: tags on notes, tags, devices and the sync feed.
 */
import { expect } from 'chai';
import { type Json, signedInNotesApi } from './support.js';

describe('Notes API over HTTP', function () {
  this.timeout(30_000);
  const api = signedInNotesApi();

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

    it("carries renames of tags and devices as changes of their own, so a client that shows notes' tag and device names learns the new ones", async () => {
      // spec 001: "Manages tags (optionally nested) and registered devices … changes reach the
      // user's devices by sync"; a tag rename changes no note, so a feed of notes' changes alone
      // never told a device that caches tag names
      let cursor: string = (await api('GET', '/v1/sync')).body.cursor;
      for (let more = true; more; ) {
        const page = (await api('GET', `/v1/sync?cursor=${cursor}&limit=500`)).body;
        cursor = page.cursor;
        more = page.hasMore;
      }
      const tag = (await api('POST', '/v1/tags', { name: 'Groceries', color: 1 })).body;
      const note = (
        await api('POST', '/v1/notes', {
          content: 'oat milk',
          tags: ['Groceries'],
          metadata: { device: 'Old phone' },
        })
      ).body;
      const device = (await api('GET', '/v1/devices')).body.devices.find(
        (d: Json) => d.name === 'Old phone',
      );
      expect((await api('PUT', `/v1/tags/${tag.id}`, { name: 'Shopping' })).status).to.equal(200);
      const renamed = await api('PUT', `/v1/devices/${device.id}`, { name: 'Kitchen phone' });
      expect(renamed.status).to.equal(200);
      expect((await api('DELETE', `/v1/tags/${tag.id}`)).status).to.equal(204);

      const page = await api('GET', `/v1/sync?cursor=${cursor}`);
      expect(page.status).to.equal(200);
      const subject = (c: Json) => c.noteId ?? c.tagId ?? c.deviceId;
      expect(page.body.changes.map((c: Json) => [c.kind, subject(c), c.change])).to.deep.equal([
        ['tag', tag.id, 'created'],
        ['device', device.id, 'created'],
        ['note', note.id, 'created'],
        ['tag', tag.id, 'updated'],
        ['device', device.id, 'updated'],
        ['tag', tag.id, 'deleted'],
      ]);
      const [, , , tagRenamed, deviceRenamed] = page.body.changes;
      expect(tagRenamed.tag).to.include({ id: tag.id, name: 'Shopping', color: 1 });
      expect(tagRenamed.revision).to.equal(1);
      expect(deviceRenamed.device).to.include({ id: device.id, name: 'Kitchen phone' });
      expect(deviceRenamed.revision).to.equal(1);
      const seqs = page.body.changes.map((c: Json) => c.seq);
      expect(seqs).to.deep.equal([...seqs].sort((a, b) => a - b));
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
});
