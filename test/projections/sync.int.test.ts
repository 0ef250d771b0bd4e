import { expect } from 'chai';
import { deviceStreamId } from '../../commands/device/index.js';
import { noteStreamId } from '../../commands/note/index.js';
import { tagStreamId } from '../../commands/tag/index.js';
import type { Projector } from '../../projections/shared/projector.js';
import { syncChangesCollection } from '../../projections/sync/document.js';
import { syncProjector } from '../../projections/sync/projector.js';
import { encodeSyncCursor, syncChanges } from '../../projections/sync/queries.js';
import { eventLog } from '../support/notes-events.js';
import { openTestStores, type TestStores } from '../support/stores.js';

const metadata = { latitude: null, longitude: null, deviceId: null, placeName: null };
const created = (noteId: string, userId: string) => ({
  noteId,
  userId,
  title: '',
  content: 'c',
  tagIds: [],
  metadata,
});

describe('Sync change feed', () => {
  let stores: TestStores;
  let projector: Projector;
  beforeEach(async () => {
    stores = await openTestStores();
  });
  afterEach(async () => {
    await stores.cleanup();
  });
  const setup = async (retainPerUser?: number) => {
    projector = syncProjector({ retainPerUser });
    await projector.setup?.(stores.readStore);
  };

  describe('When tags and devices change', () => {
    it("numbers their changes among the notes' ones, each naming its kind and id", async () => {
      await setup();
      const { log, add } = eventLog();
      const tag = { tagId: 't', userId: 'u1', name: 'Work', color: null, parentId: null };
      add(tagStreamId('u1', 't'), 'NoteTagCreated', tag, 1);
      add(
        deviceStreamId('u1', 'd'),
        'DeviceRegistered',
        {
          deviceId: 'd',
          userId: 'u1',
          name: 'Phone',
          platform: 'ios',
        },
        2,
      );
      add(noteStreamId('u1', 'a'), 'NoteCreated', created('a', 'u1'), 3);
      add(
        tagStreamId('u1', 't'),
        'NoteTagUpdated',
        { name: 'Job', color: null, parentId: null },
        4,
      );
      add(deviceStreamId('u1', 'd'), 'DeviceUpdated', { name: 'Old phone', platform: 'ios' }, 5);
      add(tagStreamId('u1', 't'), 'NoteTagDeleted', {}, 6);
      for (const e of log) await projector.apply(e, stores.readStore);
      const all = await syncChanges(stores.readStore, 'u1', undefined);
      if (all.status !== 'ok') throw new Error('expected changes');
      expect(all.changes.map(({ at: _at, ...c }) => c)).to.deep.equal([
        { seq: 1, kind: 'tag', tagId: 't', change: 'created', revision: 0 },
        { seq: 2, kind: 'device', deviceId: 'd', change: 'created', revision: 0 },
        { seq: 3, kind: 'note', noteId: 'a', change: 'created', revision: 0 },
        { seq: 4, kind: 'tag', tagId: 't', change: 'updated', revision: 1 },
        { seq: 5, kind: 'device', deviceId: 'd', change: 'updated', revision: 1 },
        { seq: 6, kind: 'tag', tagId: 't', change: 'deleted', revision: 2 },
      ]);
    });
  });

  describe('When notes change', () => {
    it('numbers each user’s changes 1, 2, 3 in order and serves them after a cursor', async () => {
      await setup();
      const { log, add } = eventLog();
      add(noteStreamId('u1', 'a'), 'NoteCreated', created('a', 'u1'), 1);
      add(noteStreamId('u2', 'x'), 'NoteCreated', created('x', 'u2'), 2);
      add(
        noteStreamId('u1', 'a'),
        'NoteUpdated',
        { title: 't', content: 'c2', tagIds: [], metadata },
        3,
      );
      add(noteStreamId('u1', 'a'), 'NoteTrashed', {}, 4);
      add(noteStreamId('u1', 'a'), 'NoteRestored', {}, 5);
      add(noteStreamId('u1', 'b'), 'NoteCreated', created('b', 'u1'), 6);
      for (const e of log) await projector.apply(e, stores.readStore);

      const all = await syncChanges(stores.readStore, 'u1', undefined);
      if (all.status !== 'ok') throw new Error('expected changes');
      expect(
        all.changes.map((c) => [c.seq, c.kind === 'note' && c.noteId, c.change]),
      ).to.deep.equal([
        [1, 'a', 'created'],
        [2, 'a', 'updated'],
        [3, 'a', 'trashed'],
        [4, 'a', 'restored'],
        [5, 'b', 'created'],
      ]);
      expect(all.hasMore).to.equal(false);

      const page = await syncChanges(stores.readStore, 'u1', encodeSyncCursor(2), { limit: 2 });
      expect(page).to.deep.include({ status: 'ok', hasMore: true, cursor: encodeSyncCursor(4) });
      const u2 = await syncChanges(stores.readStore, 'u2', undefined);
      expect(
        u2.status === 'ok' && u2.changes.map((c) => c.kind === 'note' && c.noteId),
      ).to.deep.equal(['x']);
    });

    it('assigns nothing twice when the events run again', async () => {
      await setup();
      const { log, add } = eventLog();
      add(noteStreamId('u1', 'a'), 'NoteCreated', created('a', 'u1'), 1);
      add(noteStreamId('u1', 'a'), 'TagAddedToNote', { tagId: 't' }, 2);
      for (const e of log) await projector.apply(e, stores.readStore);
      for (const e of log) await projector.apply(e, stores.readStore);
      expect(
        await stores.readStore.collection(syncChangesCollection).countDocuments({ userId: 'u1' }),
      ).to.equal(2);
      const result = await syncChanges(stores.readStore, 'u1', undefined);
      expect(result.status === 'ok' && result.changes.map((c) => c.seq)).to.deep.equal([1, 2]);
    });

    it('rewrites the last change if it went missing after the counter advanced', async () => {
      await setup();
      const { log, add } = eventLog();
      add(noteStreamId('u1', 'a'), 'NoteCreated', created('a', 'u1'), 1);
      await projector.apply(log[0]!, stores.readStore);
      await stores.readStore.collection(syncChangesCollection).deleteMany({});
      await projector.apply(log[0]!, stores.readStore);
      const result = await syncChanges(stores.readStore, 'u1', undefined);
      expect(result.status === 'ok' && result.changes.map((c) => c.seq)).to.deep.equal([1]);
    });

    it('numbers a change of each tag a delete moves up, once, and rewrites them if they went missing', async () => {
      // projections/tags: a deleted tag's children move up to its parent without events of their
      // own; a device that keeps a table of tags from the feed must learn they moved
      await setup();
      const { log, add } = eventLog();
      const tag = (tagId: string, parentId: string | null) => {
        const data = { tagId, userId: 'u1', name: tagId, color: null, parentId };
        add(tagStreamId('u1', tagId), 'NoteTagCreated', data, 1);
      };
      tag('top', null);
      tag('mid', 'top');
      tag('a', 'mid');
      tag('b', 'mid');
      add(tagStreamId('u1', 'mid'), 'NoteTagDeleted', {}, 2);
      // created under `mid` before its delete in the tag tree, landed after: filed under `top`
      tag('late', 'mid');
      add(tagStreamId('u1', 'top'), 'NoteTagDeleted', {}, 3);
      for (const e of log) await projector.apply(e, stores.readStore);
      for (const e of log) await projector.apply(e, stores.readStore);
      const moves = [
        [5, 'mid', 'deleted'],
        [6, 'a', 'updated'],
        [7, 'b', 'updated'],
        [8, 'late', 'created'],
        [9, 'top', 'deleted'],
        [10, 'a', 'updated'],
        [11, 'b', 'updated'],
        [12, 'late', 'updated'],
        [13, 'mid', 'updated'],
      ];
      const numbered = async () => {
        const result = await syncChanges(stores.readStore, 'u1', encodeSyncCursor(4));
        if (result.status !== 'ok') throw new Error(result.status);
        return result.changes.map((c) => [c.seq, c.kind === 'tag' && c.tagId, c.change]);
      };
      expect(await numbered()).to.deep.equal(moves);
      await stores.readStore.collection(syncChangesCollection).deleteMany({ seq: { $gt: 8 } });
      await projector.apply(log.at(-1)!, stores.readStore);
      expect(await numbered()).to.deep.equal(moves);
    });
  });

  describe('When a cursor is older than what the feed keeps', () => {
    it('answers resync required with a cursor to continue from', async () => {
      await setup(3);
      const { log, add } = eventLog();
      for (let i = 0; i < 6; i++)
        add(noteStreamId('u1', `n${i}`), 'NoteCreated', created(`n${i}`, 'u1'), i);
      for (const e of log) await projector.apply(e, stores.readStore);
      // kept: 4, 5, 6 — a device at 3 can still continue, one at 2 cannot
      const ok = await syncChanges(stores.readStore, 'u1', encodeSyncCursor(3));
      expect(ok.status === 'ok' && ok.changes.map((c) => c.seq)).to.deep.equal([4, 5, 6]);
      expect(await syncChanges(stores.readStore, 'u1', encodeSyncCursor(2))).to.deep.equal({
        status: 'resync-required',
        reason: 'expired',
        cursor: encodeSyncCursor(6),
      });
      expect((await syncChanges(stores.readStore, 'u1', undefined)).status).to.equal(
        'resync-required',
      );
      expect(
        await stores.readStore.collection(syncChangesCollection).countDocuments({ userId: 'u1' }),
      ).to.equal(3);
    });

    it('answers resync required for a cursor it never handed out', async () => {
      await setup();
      // `s1`: a cursor of the feed before it numbered tags' and devices' changes (note-sync@2);
      // `c1`: before it numbered the tags a delete moves up (note-sync@3)
      const before = ['s1', 'c1'].map((text) => Buffer.from(text).toString('base64url'));
      for (const cursor of ['garbage', encodeSyncCursor(1), ...before]) {
        const result = await syncChanges(stores.readStore, 'u1', cursor);
        expect(result).to.deep.include({ status: 'resync-required', reason: 'unknown' });
      }
    });
  });
});
