/**
 * Deleting a tag that has child tags. The spec says only "tag active | DELETE /v1/tags/{id} | tag
 * soft-deleted | existing note associations are left alone"; what happens to the children is
 * unsaid. A user deleting a tag in a notes app deletes that tag, not the tags filed under it (as
 * a delete leaves the tag on notes, it leaves the other tags be), and a child listed under a tag
 * no list shows is lost to the user: the children move up to the deleted tag's parent, the top
 * level when it had none (README, Notes tags). Every answer that shows a tag's parent agrees:
 * the tag list, the tag, the tags of a note and the notes of the sync feed.
 */
import { expect } from 'chai';
import { type Json, signedInNotesApi } from './support.js';

describe('Deleting a tag with children (e2e)', function () {
  this.timeout(30_000);
  const api = signedInNotesApi();
  const create = async (name: string, parentId?: string) =>
    (await api('POST', '/v1/tags', { name, ...(parentId ? { parentId } : {}) })).body;
  const parentsIn = (tags: Json[]) =>
    Object.fromEntries(tags.map((t: Json) => [t.name, t.parentId]));

  describe('When a tag in the middle of the tree is deleted', () => {
    it('lists, reads and shows on notes its children under its parent, and at the top once that is deleted too', async () => {
      const work = await create('Work');
      const projects = await create('Projects', work.id);
      const apollo = await create('Apollo', projects.id);
      const note = (await api('POST', '/v1/notes', { content: 'launch', tags: ['Apollo'] })).body;

      expect((await api('DELETE', `/v1/tags/${projects.id}`)).status).to.equal(204);
      const listed = (await api('GET', '/v1/tags')).body.tags;
      expect(parentsIn(listed)).to.deep.equal({ Apollo: work.id, Work: null });
      expect((await api('GET', `/v1/tags/${apollo.id}`)).body.parentId).to.equal(work.id);
      expect((await api('GET', `/v1/notes/${note.id}`)).body.tags).to.deep.equal([
        { id: apollo.id, name: 'Apollo', color: null, parentId: work.id },
      ]);
      // the deleted tag itself, listed with includeDeleted, keeps its place
      const all = (await api('GET', '/v1/tags?includeDeleted=true')).body.tags;
      expect(parentsIn(all)).to.deep.equal({ Apollo: work.id, Projects: work.id, Work: null });

      // a rename leaves the child where it is shown
      const renamed = await api('PUT', `/v1/tags/${apollo.id}`, { name: 'Apollo 11' });
      expect(renamed.body.parentId).to.equal(work.id);

      expect((await api('DELETE', `/v1/tags/${work.id}`)).status).to.equal(204);
      expect(parentsIn((await api('GET', '/v1/tags')).body.tags)).to.deep.equal({
        'Apollo 11': null,
      });
      // the sync feed carries the note as it is shown now, and the tags' changes after it
      const synced = await api('GET', '/v1/sync');
      const changes = synced.body.changes;
      // the rename, the delete, and the moves up the delete made (below): Apollo 11 and the
      // deleted Projects (a list with includeDeleted shows deleted tags' parents too)
      const pairs = changes.map((c: Json) => [c.tagId, c.change]);
      expect(pairs.slice(-4, -2)).to.deep.equal([
        [apollo.id, 'updated'],
        [work.id, 'deleted'],
      ]);
      expect(pairs.slice(-2)).to.have.deep.members([
        [apollo.id, 'updated'],
        [projects.id, 'updated'],
      ]);
      const last = changes.filter((c: Json) => c.kind === 'note').at(-1);
      expect(last.noteId).to.equal(note.id);
      expect(last.note.tags).to.deep.equal([
        { id: apollo.id, name: 'Apollo 11', color: null, parentId: null },
      ]);
    });
  });

  describe('When a note carrying a deleted tag is PUT back with the tag names it shows', () => {
    it('keeps the deleted tag on the note and creates no new tag of that name', async () => {
      // spec: "tag active | DELETE /v1/tags/{id} | tag soft-deleted | existing note associations
      // are left alone"; PUT "when tags is sent it replaces the whole tag set" — the set the note
      // shows, sent back unchanged, is the same set. A client editing a note sends its tags back
      // by name: that made a new active tag of each deleted one and put it on the note instead.
      const note = (await api('POST', '/v1/notes', { content: 'draft', tags: ['Archive', 'Keep'] }))
        .body;
      const [archive, keep] = note.tags;
      expect((await api('DELETE', `/v1/tags/${archive.id}`)).status).to.equal(204);

      const shown = (await api('GET', `/v1/notes/${note.id}`)).body;
      const put = await api('PUT', `/v1/notes/${note.id}`, {
        content: 'edited',
        tags: shown.tags.map((t: Json) => t.name),
      });
      expect(put.status, put.text).to.equal(200);
      expect(put.body.tags.map((t: Json) => t.id)).to.deep.equal([archive.id, keep.id]);
      const names = (await api('GET', '/v1/tags')).body.tags.map((t: Json) => t.name);
      expect(names).to.include('Keep').and.not.include('Archive');
    });
  });

  describe('When a tag is moved under the deleted tag it was filed under', () => {
    it('refuses the move as any move under a deleted tag, instead of answering 200 unmoved', async () => {
      // README (Notes tags): "the tag tree has no cycle and no child under a deleted tag"; a move
      // under a deleted tag is a 400. The child's own events still name the deleted parent, so
      // that move looked unchanged: 200 with the tag left where the delete had moved it.
      const home = await create('Home');
      const garden = await create('Garden', home.id);
      const roses = await create('Roses', garden.id);
      const elsewhere = await create('Elsewhere');
      expect((await api('DELETE', `/v1/tags/${garden.id}`)).status).to.equal(204);

      for (const tag of [roses, elsewhere]) {
        const moved = await api('PUT', `/v1/tags/${tag.id}`, { parentId: garden.id });
        expect(moved.status, moved.text).to.equal(400);
        expect(moved.body).to.deep.equal({ error: 'parent tag is deleted' });
      }
      expect((await api('GET', `/v1/tags/${roses.id}`)).body.parentId).to.equal(home.id);
    });
  });

  describe('When a device that follows the sync feed sees a tag with children deleted', () => {
    it('gets a change of each child the delete moved up, showing its new parent', async () => {
      // README (Notes sync): a tag's "move ... come[s] as tag ... changes: a client that shows
      // notes' tags ... keeps a table of tags and devices and updates it from them"; a delete
      // moves the children up with no change of theirs, so the table kept them under a tag no
      // list shows
      const trips = await create('Trips');
      const y2024 = await create('2024', trips.id);
      const rome = await create('Rome', y2024.id);
      const paris = await create('Paris', y2024.id);
      const table = new Map<string, Json>();
      const follow = async (cursor?: string) => {
        const page = (await api('GET', `/v1/sync${cursor ? `?cursor=${cursor}` : ''}`)).body;
        for (const c of page.changes) if (c.kind === 'tag') table.set(c.tagId, c.tag);
        return page;
      };
      const before = await follow();
      expect(table.get(rome.id).parentId).to.equal(y2024.id);

      expect((await api('DELETE', `/v1/tags/${y2024.id}`)).status).to.equal(204);
      const after = await follow(before.cursor);
      expect(after.changes.map((c: Json) => [c.tagId, c.change])).to.have.deep.members([
        [y2024.id, 'deleted'],
        [rome.id, 'updated'],
        [paris.id, 'updated'],
      ]);
      expect(after.changes[0].tagId).to.equal(y2024.id);
      const listed = parentsIn((await api('GET', '/v1/tags?includeDeleted=true')).body.tags);
      const followed = parentsIn([...table.values()]);
      expect(followed).to.include({ Rome: trips.id, Paris: trips.id, 2024: trips.id });
      for (const name of ['Trips', '2024', 'Rome', 'Paris']) {
        expect(followed[name], name).to.equal(listed[name]);
      }
    });
  });
});
