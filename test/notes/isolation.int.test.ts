import { expect } from 'chai';
import { NotFound } from '../../commands/shared/errors.js';
import { fakePlaces, type NotesHarness, startNotes } from './harness.js';

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
        h.actions.createNote(
          { userId: a, content: 'secret', tags: ['private'], metadata: { device: 'A-phone' } },
          h.ctx(a),
        ),
      );
      await h.run(
        h.actions.updateNote({ userId: a, noteId: note.id, content: 'secret v2' }, h.ctx(a)),
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
        h.actions.updateNote({ userId: b, noteId: note.id, content: 'x' }, h.ctx(b)),
        h.actions.trashNote({ userId: b, noteId: note.id }, h.ctx(b)),
        h.actions.restoreNote({ userId: b, noteId: note.id }, h.ctx(b)),
        h.actions.addTagToNote({ userId: b, noteId: note.id, tagId: tag!.id }, h.ctx(b)),
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
