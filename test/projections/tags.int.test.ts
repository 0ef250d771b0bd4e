import { expect } from 'chai';
import { tagStreamId } from '../../commands/tag/index.js';
import type { Projector } from '../../projections/shared/projector.js';
import { tagsProjector } from '../../projections/tags/projector.js';
import { findTagByName, getTag, getTags, listTags } from '../../projections/tags/queries.js';
import { eventLog } from '../support/notes-events.js';
import { openTestStores, type TestStores } from '../support/stores.js';

describe('Tags projection', () => {
  let stores: TestStores;
  let projector: Projector;
  beforeEach(async () => {
    stores = await openTestStores();
    projector = tagsProjector();
    await projector.setup?.(stores.readStore);
  });
  afterEach(async () => {
    await stores.cleanup();
  });

  describe('When tags are created, renamed and soft-deleted', () => {
    it('keeps one document per tag, and running the events twice changes nothing', async () => {
      const { log, add } = eventLog();
      add(
        tagStreamId('u1', 't1'),
        'NoteTagCreated',
        { tagId: 't1', userId: 'u1', name: 'Work', color: 2, parentId: null },
        10,
      );
      add(
        tagStreamId('u1', 't2'),
        'NoteTagCreated',
        { tagId: 't2', userId: 'u1', name: 'ideas', color: null, parentId: 't1' },
        11,
      );
      add(
        tagStreamId('u2', 't3'),
        'NoteTagCreated',
        { tagId: 't3', userId: 'u2', name: 'Work', color: null, parentId: null },
        12,
      );
      add(tagStreamId('u1', 't1'), 'NoteTagUpdated', { name: 'Job', color: 5, parentId: null }, 20);
      add(tagStreamId('u1', 't2'), 'NoteTagDeleted', {}, 30);
      for (const e of log) await projector.apply(e, stores.readStore);
      const snapshot = await listTags(stores.readStore, 'u1', { includeDeleted: true });
      for (const e of log) await projector.apply(e, stores.readStore);
      expect(await listTags(stores.readStore, 'u1', { includeDeleted: true })).to.deep.equal(
        snapshot,
      );

      expect((await listTags(stores.readStore, 'u1')).map((t) => t.name)).to.deep.equal(['Job']);
      expect(await getTag(stores.readStore, 'u1', 't2')).to.deep.include({
        parentId: 't1',
        deletedAt: 30,
      });
      expect(await getTag(stores.readStore, 'u1', 't1')).to.deep.include({
        name: 'Job',
        color: 5,
        updatedAt: 20,
        revision: 1,
      });
      expect(await findTagByName(stores.readStore, 'u1', ' JOB ')).to.include({ id: 't1' });
      expect(await findTagByName(stores.readStore, 'u1', 'work')).to.equal(null);
      expect(
        await findTagByName(stores.readStore, 'u1', 'ideas'),
        'deleted tags are not found by name',
      ).to.equal(null);
    });
  });

  // Spec: "tag active | DELETE /v1/tags/{id} | tag soft-deleted" and nothing about its children.
  // A user who deletes a tag deletes that tag, not the ones filed under it; left under it, they
  // would name a parent no list shows. They move up to its parent (README, Notes tags), in a log
  // written before this rule too (the projector's version 2 replays it).
  describe('When a tag with children is deleted (a log of any age, replayed)', () => {
    it('shows its children under its own parent, also a child moved under it that landed after the delete, and running twice changes nothing', async () => {
      const { log, add } = eventLog();
      const tag = (tagId: string, name: string, parentId: string | null) =>
        add(
          tagStreamId('u1', tagId),
          'NoteTagCreated',
          { tagId, userId: 'u1', name, color: null, parentId },
          10,
        );
      tag('a', 'Work', null);
      tag('b', 'Projects', 'a');
      tag('c', 'Apollo', 'b');
      tag('d', 'Gemini', null);
      add(tagStreamId('u1', 'b'), 'NoteTagDeleted', {}, 20);
      // a move ordered before the delete in the user's tag tree whose event landed after it
      add(
        tagStreamId('u1', 'd'),
        'NoteTagUpdated',
        { name: 'Gemini', color: null, parentId: 'b' },
        21,
      );
      // a rename of a child keeps the parent it was given (b) in its event
      add(
        tagStreamId('u1', 'c'),
        'NoteTagUpdated',
        { name: 'Apollo 11', color: null, parentId: 'b' },
        22,
      );
      add(tagStreamId('u1', 'a'), 'NoteTagDeleted', {}, 30);
      const parents = async () =>
        Object.fromEntries(
          (await listTags(stores.readStore, 'u1', { includeDeleted: true })).map((t) => [
            t.id,
            t.parentId,
          ]),
        );
      for (const e of log.slice(0, 7)) await projector.apply(e, stores.readStore);
      expect(await parents()).to.deep.equal({ a: null, b: 'a', c: 'a', d: 'a' });
      expect(await getTag(stores.readStore, 'u1', 'c')).to.include({ updatedAt: 22 });
      await projector.apply(log[7]!, stores.readStore);
      expect(await parents()).to.deep.equal({ a: null, b: null, c: null, d: null });
      const snapshot = await listTags(stores.readStore, 'u1', { includeDeleted: true });
      for (const e of log) await projector.apply(e, stores.readStore);
      expect(await listTags(stores.readStore, 'u1', { includeDeleted: true })).to.deep.equal(
        snapshot,
      );
    });
  });

  describe('When another user has tags', () => {
    it('never shows them', async () => {
      const { log, add } = eventLog();
      add(
        tagStreamId('u2', 't3'),
        'NoteTagCreated',
        { tagId: 't3', userId: 'u2', name: 'Secret', color: null, parentId: null },
        12,
      );
      for (const e of log) await projector.apply(e, stores.readStore);
      expect(await listTags(stores.readStore, 'u1', { includeDeleted: true })).to.deep.equal([]);
      expect(await getTag(stores.readStore, 'u1', 't3')).to.equal(null);
      expect(await getTags(stores.readStore, 'u1', ['t3'])).to.deep.equal([]);
      expect(await findTagByName(stores.readStore, 'u1', 'Secret')).to.equal(null);
      expect(await getTag(stores.readStore, 'u2', 't3')).to.include({ name: 'Secret' });
    });
  });
});
