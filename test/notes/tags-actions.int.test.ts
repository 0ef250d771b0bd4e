import { expect } from 'chai';
import {
  AlreadyExists,
  FailedPrecondition,
  InvalidArgument,
  NotFound,
} from '../../commands/shared/errors.js';
import { fakePlaces, type NotesHarness, startNotes } from './harness.js';
import { createNote, createTag, deleteTag, updateTag } from '../../src/notes/actions/index.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('Tag actions', () => {
  let h: NotesHarness;
  let u1: string;
  let u2: string;
  let users = 0;
  // One service per file (starting one costs ~0.3 s); each test gets users of its own.
  before(async () => {
    h = await startNotes({ places: fakePlaces() });
  });
  after(async () => {
    await h.stop();
  });
  beforeEach(() => {
    users++;
    u1 = `user-${users}-a`;
    u2 = `user-${users}-b`;
  });
  const create = (
    name: string,
    extra: { color?: number | null; parentId?: string | null } = {},
    userId = u1,
  ) => h.run(createTag(h.deps, h.ctx(userId), { userId, name, ...extra }));

  describe('When a tag is created', () => {
    it('stores name, palette colour and parent', async () => {
      const parent = await create('Projects', { color: 7 });
      const child = await create('Garden', { parentId: parent.tag.id, color: 0 });
      expect(await h.queries.getTag(u1, child.tag.id)).to.deep.include({
        name: 'Garden',
        color: 0,
        parentId: parent.tag.id,
        deletedAt: null,
      });
    });
    it('accepts colours 0 to 11 only', async () => {
      // spec: "color | integer index | index into a fixed tag palette, not a hex value"
      await create('a', { color: 11 });
      for (const color of [12, -1, 1.5]) {
        expect(await rejection(create(`c${color}`, { color })), String(color)).to.be.instanceOf(
          InvalidArgument,
        );
      }
    });
    it('requires a name', async () => {
      expect(await rejection(create('  '))).to.be.instanceOf(InvalidArgument);
      expect(await rejection(create('x'.repeat(101)))).to.be.instanceOf(InvalidArgument);
      await create('x'.repeat(100));
    });
    it('refuses a second active tag with the same name, ignoring case', async () => {
      await create('Work');
      expect(await rejection(create(' work'))).to.be.instanceOf(AlreadyExists);
    });
    it('allows the name again once the tag is deleted', async () => {
      const first = await create('Work');
      await h.run(deleteTag(h.deps, h.ctx(u1), { userId: u1, tagId: first.tag.id }));
      const second = await create('Work');
      expect(second.tag.id).to.not.equal(first.tag.id);
    });
    it('converges when two requests create the same name at once', async () => {
      const [a, b] = await Promise.all([
        createNote(h.deps, h.ctx(u1), { userId: u1, content: '1', tags: ['Race'] }),
        createNote(h.deps, h.ctx(u1), { userId: u1, content: '2', tags: ['race'] }),
      ]);
      expect(a.note.tags).to.deep.equal(b.note.tags);
    });
  });

  describe('When a parent is given', () => {
    it('refuses a parent that does not exist, is another user’s, or is deleted', async () => {
      const theirs = await create('theirs', {}, u2);
      const gone = await create('gone');
      await h.run(deleteTag(h.deps, h.ctx(u1), { userId: u1, tagId: gone.tag.id }));
      for (const parentId of ['missing', theirs.tag.id, gone.tag.id]) {
        const error = await rejection(create(`child-${parentId}`, { parentId }));
        expect(error, parentId).to.be.instanceOf(InvalidArgument);
        expect((error as Error).message).to.match(/parent/);
      }
    });
    it('refuses a move that would make a cycle', async () => {
      // spec (issue): "parentId for nesting — parent must exist, belong to the user, and no cycles"
      const a = await create('a');
      const b = await create('b', { parentId: a.tag.id });
      const c = await create('c', { parentId: b.tag.id });
      const cycle = await rejection(
        updateTag(h.deps, h.ctx(u1), { userId: u1, tagId: a.tag.id, parentId: c.tag.id }),
      );
      expect(cycle).to.be.instanceOf(InvalidArgument);
      expect((cycle as Error).message).to.match(/cycle/);
      const self = await rejection(
        updateTag(h.deps, h.ctx(u1), { userId: u1, tagId: a.tag.id, parentId: a.tag.id }),
      );
      expect(self).to.be.instanceOf(InvalidArgument);
      // moving c to the top level and a under c is fine
      await h.run(updateTag(h.deps, h.ctx(u1), { userId: u1, tagId: c.tag.id, parentId: null }));
      await h.run(
        updateTag(h.deps, h.ctx(u1), { userId: u1, tagId: a.tag.id, parentId: c.tag.id }),
      );
      expect((await h.queries.getTag(u1, a.tag.id)).parentId).to.equal(c.tag.id);
    });
  });

  describe('When a tag is updated or deleted', () => {
    it('renames and recolours, refusing a name another tag has', async () => {
      const t = await create('old', { color: 1 });
      await create('taken');
      await h.run(
        updateTag(h.deps, h.ctx(u1), { userId: u1, tagId: t.tag.id, name: 'new', color: null }),
      );
      expect(await h.queries.getTag(u1, t.tag.id)).to.deep.include({ name: 'new', color: null });
      expect(
        await rejection(
          updateTag(h.deps, h.ctx(u1), { userId: u1, tagId: t.tag.id, name: 'TAKEN' }),
        ),
      ).to.be.instanceOf(AlreadyExists);
    });
    it('soft-deletes: gone from the list, readable with deletedAt, no further updates', async () => {
      const t = await create('temp');
      await h.run(deleteTag(h.deps, h.ctx(u1), { userId: u1, tagId: t.tag.id }));
      expect(await h.queries.listTags(u1)).to.deep.equal([]);
      expect((await h.queries.getTag(u1, t.tag.id)).deletedAt).to.be.a('number');
      expect(
        await rejection(updateTag(h.deps, h.ctx(u1), { userId: u1, tagId: t.tag.id, name: 'x' })),
      ).to.be.instanceOf(FailedPrecondition);
    });
    it('answers another user’s tag exactly like a missing one', async () => {
      const theirs = await create('theirs', {}, u2);
      const a = (await rejection(
        deleteTag(h.deps, h.ctx(u1), { userId: u1, tagId: theirs.tag.id }),
      )) as Error;
      const b = (await rejection(
        deleteTag(h.deps, h.ctx(u1), { userId: u1, tagId: 'missing' }),
      )) as Error;
      expect(a).to.be.instanceOf(NotFound);
      expect(a.message).to.equal(b.message);
      expect((await rejection(h.queries.getTag(u1, theirs.tag.id))) as Error).to.be.instanceOf(
        NotFound,
      );
    });
  });
});
