import { expect } from 'chai';
import { fakePlaces, type NotesHarness, startNotes } from './harness.js';
import { createNote, restoreNote, trashNote, updateNote } from '../../src/notes/actions/index.js';

describe('Sync feed and list walk over the actions', () => {
  let h: NotesHarness;
  before(async () => {
    h = await startNotes({ places: fakePlaces(), syncRetainPerUser: 1000 });
  });
  after(async () => {
    await h.stop();
  });

  describe('When a device follows the change feed', () => {
    it('sees creates, updates, trashes and restores in order, then only what is new', async () => {
      const u = 'syncer';
      const first = await h.run(createNote(h.deps, h.ctx(u), { userId: u, content: 'a' }));
      const id = first.note.id;
      await h.run(updateNote(h.deps, h.ctx(u), { userId: u, noteId: id, content: 'b' }));
      await h.run(trashNote(h.deps, h.ctx(u), { userId: u, noteId: id }));
      await h.run(restoreNote(h.deps, h.ctx(u), { userId: u, noteId: id }));
      const feed = await h.queries.syncChanges(u, undefined);
      if (feed.status !== 'ok') throw new Error(feed.status);
      expect(feed.changes.map((c) => c.change)).to.deep.equal([
        'created',
        'updated',
        'trashed',
        'restored',
      ]);
      expect(feed.changes.map((c) => c.revision)).to.deep.equal([0, 1, 2, 3]);

      const second = await h.run(createNote(h.deps, h.ctx(u), { userId: u, content: 'c' }));
      const next = await h.queries.syncChanges(u, feed.cursor);
      expect(
        next.status === 'ok' && next.changes.map((c) => [c.kind === 'note' && c.noteId, c.change]),
      ).to.deep.equal([[second.note.id, 'created']]);
    });
  });

  describe('When 500 notes are created and walked with limit 7', () => {
    it('returns every active note exactly once; includeDeleted adds the trashed ones', async function () {
      this.timeout(60_000);
      // spec: "GET /v1/notes | `limit` (integer 1 to 100, default 20), `pageToken`, `includeDeleted`"
      const u = 'walker';
      const ids: string[] = [];
      let last: bigint | null = null;
      for (let i = 0; i < 500; i++) {
        const { note, position } = await createNote(h.deps, h.ctx(u), {
          userId: u,
          content: `note ${i}`,
        });
        ids.push(note.id);
        last = position;
      }
      const trashed = ids.filter((_, i) => i % 10 === 3);
      for (const noteId of trashed)
        last = (await trashNote(h.deps, h.ctx(u), { userId: u, noteId })).position;
      if (last !== null) await h.engine.waitFor(last);

      const walk = async (includeDeleted: boolean) => {
        const seen: string[] = [];
        let pageToken: string | undefined;
        do {
          const page = await h.queries.listNotes(u, { limit: 7, pageToken, includeDeleted });
          seen.push(...page.notes.map((n) => n.id));
          pageToken = page.nextPageToken ?? undefined;
        } while (pageToken);
        return seen;
      };
      const active = await walk(false);
      expect(active).to.have.length(500 - trashed.length);
      expect(new Set(active)).to.deep.equal(new Set(ids.filter((id) => !trashed.includes(id))));
      const all = await walk(true);
      expect(all).to.have.length(500);
      expect(new Set(all)).to.deep.equal(new Set(ids));
    });
  });
});
