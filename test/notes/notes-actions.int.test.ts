import { expect } from 'chai';
import { RevisionMismatch } from '../../commands/shared/revision.js';
import {
  Conflict,
  FailedPrecondition,
  InvalidArgument,
  NotFound,
} from '../../commands/shared/errors.js';
import { createGazetteer } from '../../src/notes/places.js';
import { fakePlaces, type NotesHarness, startNotes } from './harness.js';
import {
  addTagToNote,
  createNote,
  createTag,
  deleteTag,
  removeTagFromNote,
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

describe('Note actions', () => {
  let h: NotesHarness;
  const places = createGazetteer(); // shared: the index is built once for the file
  let u1: string;
  let u2: string;
  let users = 0;
  // One service per file (starting one costs ~0.3 s); each test gets users of its own.
  before(async () => {
    h = await startNotes({ places });
  });
  after(async () => {
    await h.stop();
  });
  beforeEach(() => {
    users++;
    u1 = `user-${users}-a`;
    u2 = `user-${users}-b`;
  });

  describe('When a note is created with tag names, a device name and coordinates', () => {
    it('creates the unknown tags and the device and names the place', async () => {
      // spec: "creates a note; unknown tag names and the device name are created"
      const work = await h.run(createTag(h.deps, h.ctx(u1), { userId: u1, name: 'Work' }));
      const created = await h.run(
        createNote(h.deps, h.ctx(u1), {
          userId: u1,
          title: 'Café',
          content: 'croissants',
          tags: ['work', 'Travel', 'travel '],
          metadata: { latitude: 48.8566, longitude: 2.3522, device: 'Pixel' },
        }),
      );
      const note = await h.queries.getNote(u1, created.note.id);
      expect(note).to.deep.include({
        title: 'Café',
        content: 'croissants',
        deletedAt: null,
        revision: 0,
      });
      expect(note.metadata).to.include({
        latitude: 48.8566,
        longitude: 2.3522,
        placeName: 'Paris, FR',
      });
      const tags = await h.queries.listTags(u1);
      expect(tags.map((t) => t.name)).to.deep.equal(['Travel', 'Work']);
      expect(note.tags).to.deep.equal([work.tag.id, tags.find((t) => t.name === 'Travel')?.id]);
      const devices = await h.queries.listDevices(u1);
      expect(devices).to.have.length(1);
      expect(devices[0]).to.include({
        name: 'Pixel',
        platform: 'unknown',
        id: note.metadata.deviceId,
      });

      // the same names again reuse the same tag and device
      const again = await h.run(
        createNote(h.deps, h.ctx(u1), {
          userId: u1,
          content: 'x',
          tags: ['TRAVEL'],
          metadata: { device: 'pixel' },
        }),
      );
      expect(again.note.tags).to.deep.equal([tags.find((t) => t.name === 'Travel')?.id]);
      expect(again.note.metadata.deviceId).to.equal(note.metadata.deviceId);
      expect(await h.queries.listTags(u1)).to.have.length(2);
      expect(await h.queries.listDevices(u1)).to.have.length(1);
    });

    it('defaults the title to empty and stores no metadata when none is sent', async () => {
      const { note } = await h.run(
        createNote(h.deps, h.ctx(u1), { userId: u1, content: 'only content' }),
      );
      expect(await h.queries.getNote(u1, note.id)).to.deep.include({
        title: '',
        tags: [],
        metadata: { latitude: null, longitude: null, deviceId: null, placeName: null },
      });
    });
  });

  describe('When a note is created with bad input', () => {
    const bad: [string, Record<string, unknown>, RegExp][] = [
      ['missing content', {}, /content/],
      ['empty content', { content: '' }, /content/],
      [
        'latitude above 90',
        { content: 'x', metadata: { latitude: 90.1, longitude: 0 } },
        /latitude/,
      ],
      [
        'latitude below -90',
        { content: 'x', metadata: { latitude: -91, longitude: 0 } },
        /latitude/,
      ],
      [
        'longitude above 180',
        { content: 'x', metadata: { latitude: 0, longitude: 180.01 } },
        /longitude/,
      ],
      [
        'longitude below -180',
        { content: 'x', metadata: { latitude: 0, longitude: -181 } },
        /longitude/,
      ],
      ['latitude without longitude', { content: 'x', metadata: { latitude: 10 } }, /together/],
      ['an empty tag name', { content: 'x', tags: [' '] }, /tags/],
      ['101 tags', { content: 'x', tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }, /tags/],
    ];
    for (const [what, input, message] of bad) {
      it(`rejects ${what} and creates nothing`, async () => {
        const error = await rejection(
          createNote(h.deps, h.ctx(u1), {
            userId: u1,
            tags: ['side-effect'],
            metadata: { device: 'phone' },
            ...input,
          } as never),
        );
        expect(error).to.be.instanceOf(InvalidArgument);
        expect((error as Error).message).to.match(message);
        expect(await h.queries.listTags(u1)).to.deep.equal([]);
        expect(await h.queries.listDevices(u1)).to.deep.equal([]);
      });
    }
    it('accepts coordinates at the bounds', async () => {
      const { note } = await createNote(h.deps, h.ctx(u1), {
        userId: u1,
        content: 'pole',
        metadata: { latitude: -90, longitude: 180 },
      });
      expect(note.metadata).to.include({ latitude: -90, longitude: 180 });
    });
  });

  describe('When a note is updated three times', () => {
    it('archives three versions, newest first, each equal to what was there before', async () => {
      // spec: "PUT ... the replaced version is archived first and readable from the history endpoint"
      const u = u1;
      const v0 = { title: 'v0', content: 'first', tags: ['a'] };
      const { note } = await h.run(createNote(h.deps, h.ctx(u), { userId: u, ...v0 }));
      const read = async () => {
        const n = await h.queries.getNote(u, note.id);
        return { title: n.title, content: n.content, tags: n.tags, metadata: n.metadata };
      };
      const before: Awaited<ReturnType<typeof read>>[] = [];
      const updates = [
        { title: 'v1', content: 'second', tags: ['b'] },
        { title: 'v2', content: 'third', metadata: { latitude: 48.8566, longitude: 2.3522 } },
        { content: 'fourth', tags: [] },
      ];
      for (const update of updates) {
        before.push(await read());
        await h.run(updateNote(h.deps, h.ctx(u), { userId: u, noteId: note.id, ...update }));
      }
      const history = await h.queries.history(u, note.id);
      expect(history).to.have.length(3);
      expect(
        history.map(({ title, content, tags, metadata }) => ({ title, content, tags, metadata })),
      ).to.deep.equal(before.reverse());
      expect(history[0]!.archivedAt).to.be.greaterThan(history[1]!.archivedAt);
      // PUT replaces title and metadata; the tags sent last time replaced the whole set
      expect(await read()).to.deep.equal({
        title: '',
        content: 'fourth',
        tags: [],
        metadata: { latitude: null, longitude: null, deviceId: null, placeName: null },
      });
      // v2 kept v1's tags because it sent none
      expect(history[0]!.tags).to.deep.equal(history[1]!.tags);
    });

    it('archives nothing for tag changes, trash or an unchanged PUT', async () => {
      const { note } = await h.run(createNote(h.deps, h.ctx(u1), { userId: u1, content: 'c' }));
      const tag = await h.run(createTag(h.deps, h.ctx(u1), { userId: u1, name: 'x' }));
      await h.run(
        addTagToNote(h.deps, h.ctx(u1), { userId: u1, noteId: note.id, tagId: tag.tag.id }),
      );
      const same = await updateNote(h.deps, h.ctx(u1), {
        userId: u1,
        noteId: note.id,
        content: 'c',
      });
      expect(same.position).to.equal(null);
      await h.run(trashNote(h.deps, h.ctx(u1), { userId: u1, noteId: note.id }));
      expect(await h.queries.history(u1, note.id)).to.deep.equal([]);
    });
  });

  describe('When a client updates with If-Match', () => {
    it('accepts the current revision and refuses a stale one', async () => {
      const { note, revision } = await h.run(
        createNote(h.deps, h.ctx(u1), { userId: u1, content: 'c' }),
      );
      const first = await h.run(
        updateNote(h.deps, h.ctx(u1), {
          userId: u1,
          noteId: note.id,
          content: 'mine',
          expectedRevision: revision,
        }),
      );
      expect(first.revision).to.equal(revision + 1);
      expect((await h.queries.getNote(u1, note.id)).revision, 'ETag = revision').to.equal(
        first.revision,
      );
      const stale = await rejection(
        updateNote(h.deps, h.ctx(u1), {
          userId: u1,
          noteId: note.id,
          content: 'lost',
          expectedRevision: revision,
        }),
      );
      expect(stale).to.be.instanceOf(RevisionMismatch).and.to.be.instanceOf(Conflict);
      expect((stale as Conflict).kind).to.equal('conflict');
      const staleDelete = await rejection(
        trashNote(h.deps, h.ctx(u1), { userId: u1, noteId: note.id, expectedRevision: revision }),
      );
      expect(staleDelete).to.be.instanceOf(RevisionMismatch);
      expect((await h.queries.getNote(u1, note.id)).content).to.equal('mine');
    });
  });

  describe('When a note is trashed and restored', () => {
    it('leaves the list, stays readable with deletedAt, and comes back', async () => {
      // spec: "DELETE /v1/notes/{id} ... moves the note to trash"
      const { note } = await h.run(createNote(h.deps, h.ctx(u1), { userId: u1, content: 'c' }));
      const ctx = h.ctx(u1);
      await h.run(trashNote(h.deps, ctx, { userId: u1, noteId: note.id }));
      expect((await h.queries.listNotes(u1)).notes).to.deep.equal([]);
      expect((await h.queries.listNotes(u1, { includeDeleted: true })).notes).to.have.length(1);
      expect((await h.queries.getNote(u1, note.id)).deletedAt).to.equal(ctx.now);
      const edit = await rejection(
        updateNote(h.deps, h.ctx(u1), { userId: u1, noteId: note.id, content: 'x' }),
      );
      expect(edit).to.be.instanceOf(FailedPrecondition);
      await h.run(restoreNote(h.deps, h.ctx(u1), { userId: u1, noteId: note.id }));
      expect((await h.queries.listNotes(u1)).notes.map((n) => n.id)).to.deep.equal([note.id]);
    });
  });

  describe('When tags are added to and removed from a note', () => {
    it('adds an existing tag, refuses an unknown or another user’s tag, and removes it', async () => {
      const { note } = await h.run(createNote(h.deps, h.ctx(u1), { userId: u1, content: 'c' }));
      const mine = await h.run(createTag(h.deps, h.ctx(u1), { userId: u1, name: 'mine' }));
      const theirs = await h.run(createTag(h.deps, h.ctx(u2), { userId: u2, name: 'theirs' }));
      await h.run(
        addTagToNote(h.deps, h.ctx(u1), { userId: u1, noteId: note.id, tagId: mine.tag.id }),
      );
      expect((await h.queries.getNote(u1, note.id)).tags).to.deep.equal([mine.tag.id]);
      for (const tagId of [theirs.tag.id, 'no-such-tag', '../../etc']) {
        const error = await rejection(
          addTagToNote(h.deps, h.ctx(u1), { userId: u1, noteId: note.id, tagId }),
        );
        expect(error, tagId).to.be.instanceOf(NotFound);
      }
      // deleting the tag leaves the association alone; it can still be removed
      await h.run(deleteTag(h.deps, h.ctx(u1), { userId: u1, tagId: mine.tag.id }));
      expect((await h.queries.getNote(u1, note.id)).tags).to.deep.equal([mine.tag.id]);
      await h.run(
        removeTagFromNote(h.deps, h.ctx(u1), { userId: u1, noteId: note.id, tagId: mine.tag.id }),
      );
      expect((await h.queries.getNote(u1, note.id)).tags).to.deep.equal([]);
    });
  });

  describe('When a create is retried with the same Idempotency-Key', () => {
    it('answers from the first attempt and creates one note', async () => {
      const input = { userId: u1, content: 'once', tags: ['k'] };
      const first = await h.run(createNote(h.deps, h.ctx(u1, { idempotencyKey: 'key-1' }), input));
      const retry = await h.run(createNote(h.deps, h.ctx(u1, { idempotencyKey: 'key-1' }), input));
      expect(retry.note.id).to.equal(first.note.id);
      expect(retry.replayed).to.equal(true);
      expect((await h.queries.listNotes(u1)).notes).to.have.length(1);
      const other = await rejection(
        createNote(h.deps, h.ctx(u1, { idempotencyKey: 'key-1' }), {
          ...input,
          content: 'different',
        }),
      );
      expect(other).to.be.instanceOf(Conflict);
    });
  });

  describe('When a note is updated that does not exist', () => {
    it('answers not found without creating tags', async () => {
      const error = await rejection(
        updateNote(h.deps, h.ctx(u1), {
          userId: u1,
          noteId: 'nope',
          content: 'x',
          tags: ['ghost'],
        }),
      );
      expect(error).to.be.instanceOf(NotFound);
      expect(await h.queries.listTags(u1)).to.deep.equal([]);
    });
  });
});

describe('Note actions with a stand-in gazetteer', () => {
  it('asks for a place only when coordinates are given', async () => {
    const places = fakePlaces();
    const h = await startNotes({ places });
    try {
      await createNote(h.deps, h.ctx('u1'), { userId: 'u1', content: 'x' });
      expect(places.asked).to.equal(0);
      const { note } = await createNote(h.deps, h.ctx('u1'), {
        userId: 'u1',
        content: 'x',
        metadata: { latitude: 1, longitude: 2 },
      });
      expect(places.asked).to.equal(1);
      expect(note.metadata.placeName).to.equal('Testville, TT');
    } finally {
      await h.stop();
    }
  });
});
