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
