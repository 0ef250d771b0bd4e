import { expect } from 'chai';
import { NotFound } from '../../commands/shared/errors.js';
import { fakePlaces, type NotesHarness, startNotes } from './harness.js';
import {
  addTagToNote,
  createNote,
  restoreNote,
  trashNote,
  updateNote,
} from '../../src/notes/actions/index.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('Isolation between users', () => {
  let h: NotesHarness;
  before(async () => {
    h = await startNotes({ places: fakePlaces() });
  });
  after(async () => {
    await h.stop();
  });

  describe('When user A has notes, tags and devices', () => {
    it('gives user B nothing of them through any query or action', async () => {
      // spec: "Access is strictly per user: a token reaches only the notes of the account that signed in"
      const a = 'alice';
      const b = 'bob';
      const { note } = await h.run(
        createNote(h.deps, h.ctx(a), {
          userId: a,
          content: 'secret',
          tags: ['private'],
          metadata: { device: 'A-phone' },
        }),
      );
      await h.run(
        updateNote(h.deps, h.ctx(a), { userId: a, noteId: note.id, content: 'secret v2' }),
      );
      const [tag] = await h.queries.listTags(a);
      const [device] = await h.queries.listDevices(a);

      expect((await h.queries.listNotes(b, { includeDeleted: true })).notes).to.deep.equal([]);
      expect(await h.queries.listTags(b, { includeDeleted: true })).to.deep.equal([]);
      expect(await h.queries.listDevices(b)).to.deep.equal([]);
      expect(await h.queries.getNotes(b, [note.id])).to.deep.equal([]);
      expect(await h.queries.getTags(b, [tag!.id])).to.deep.equal([]);
      const feed = await h.queries.syncChanges(b, undefined);
      expect(feed.status === 'ok' && feed.changes).to.deep.equal([]);

      const missing = (await rejection(h.queries.getNote(b, 'no-such-note'))) as Error;
      const reads: Promise<unknown>[] = [
        h.queries.getNote(b, note.id),
        h.queries.history(b, note.id),
        updateNote(h.deps, h.ctx(b), { userId: b, noteId: note.id, content: 'x' }),
        trashNote(h.deps, h.ctx(b), { userId: b, noteId: note.id }),
        restoreNote(h.deps, h.ctx(b), { userId: b, noteId: note.id }),
        addTagToNote(h.deps, h.ctx(b), { userId: b, noteId: note.id, tagId: tag!.id }),
      ];
      for (const read of reads) {
        const error = (await rejection(read)) as Error;
        expect(error).to.be.instanceOf(NotFound);
        expect(error.message).to.equal(missing.message);
      }
      expect(await rejection(h.queries.getTag(b, tag!.id))).to.be.instanceOf(NotFound);
      expect(await rejection(h.queries.getDevice(b, device!.id))).to.be.instanceOf(NotFound);

      // and A's data is untouched by B's attempts
      expect((await h.queries.getNote(a, note.id)).content).to.equal('secret v2');
      expect(await h.queries.history(a, note.id)).to.have.length(1);
    });
  });
});
