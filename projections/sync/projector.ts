/**
 * Builds the sync change feed from note, tag and device events. Sequence numbers are assigned from a per-user
 * head document, guarded by position like every projector write, so a replay assigns nothing
 * twice. The head also keeps the last change it numbered: if the process stopped between
 * advancing the head and writing that change (possible on MongoDB, where writes are not one
 * transaction), the replay of the same event writes the change again from the head.
 * Numbering is deterministic in log order, so a rebuild reproduces the same sequence.
 *
 * A tag's delete moves its children up to its parent (projections/tags) without an event of
 * theirs: the feed follows the tag tree (tag-tree.ts) and numbers, after the delete, an `updated`
 * change of each tag it moved, which the head keeps with the last change (`moved`) for the same
 * repair.
 */
import {
  type DeviceEventType,
  deviceEventTypes,
  deviceStreamPrefix,
  parseDeviceStreamId,
} from '../../commands/device/index.js';
import {
  noteEventTypes,
  noteStreamPrefix,
  parseNoteStreamId,
  type NoteEventType,
} from '../../commands/note/index.js';
import {
  parseTagEvent,
  parseTagStreamId,
  type TagEventType,
  tagEventTypes,
  tagStreamPrefix,
} from '../../commands/tag/index.js';
import type { RecordedEvent } from '../../src/eventstore/types.js';
import { guardedUpdate, positionKey } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import {
  defaultSyncRetention,
  type SyncChangeDoc,
  type SyncChangeKind,
  type SyncHeadDoc,
  type SyncSubject,
  syncChangeId,
  syncChangesCollection,
  syncHeadsCollection,
} from './document.js';
import { followTagEvent, movedByDelete, setupTagTree, syncTagsCollection } from './tag-tree.js';

const CHANGES: Record<NoteEventType | TagEventType | DeviceEventType, SyncChangeKind> = {
  NoteCreated: 'created',
  NoteUpdated: 'updated',
  TagAddedToNote: 'updated',
  TagRemovedFromNote: 'updated',
  NoteTrashed: 'trashed',
  NoteRestored: 'restored',
  NoteTagCreated: 'created',
  NoteTagUpdated: 'updated',
  NoteTagDeleted: 'deleted',
  DeviceRegistered: 'created',
  DeviceUpdated: 'updated',
};

/** The user and the note, tag or device an event changes; null for any other event. */
function subjectOf(recorded: RecordedEvent): { userId: string; subject: SyncSubject } | null {
  const { streamId, type } = recorded;
  const note = noteEventTypes.includes(type as NoteEventType) && parseNoteStreamId(streamId);
  if (note) return { userId: note.userId, subject: { kind: 'note', noteId: note.noteId } };
  const tag = tagEventTypes.includes(type as TagEventType) && parseTagStreamId(streamId);
  if (tag) return { userId: tag.userId, subject: { kind: 'tag', tagId: tag.tagId } };
  const device =
    deviceEventTypes.includes(type as DeviceEventType) && parseDeviceStreamId(streamId);
  if (device) {
    return { userId: device.userId, subject: { kind: 'device', deviceId: device.deviceId } };
  }
  return null;
}

export function syncProjector(options: { retainPerUser?: number } = {}): Projector {
  const retain = options.retainPerUser ?? defaultSyncRetention;
  return {
    name: 'note-sync',
    // 2: tags' and devices' changes are entries too (a data folder's feed is numbered again)
    // 3: the tags a delete moves up are changes too (numbered again; cursors: queries.ts)
    version: 3,
    collections: [syncChangesCollection, syncHeadsCollection, syncTagsCollection],
    filter: {
      streamPrefixes: [noteStreamPrefix, tagStreamPrefix, deviceStreamPrefix],
      eventTypes: [...noteEventTypes, ...tagEventTypes, ...deviceEventTypes],
    },
    async setup(store) {
      await store
        .collection(syncChangesCollection)
        .createIndex({ keys: { userId: 1, seq: 1 }, unique: true, name: 'by_user_seq' });
      await setupTagTree(store);
    },
    async apply(recorded, store) {
      const ids = subjectOf(recorded);
      if (!ids) return;
      const heads = store.collection<SyncHeadDoc>(syncHeadsCollection);
      const changes = store.collection<SyncChangeDoc>(syncChangesCollection);
      const key = positionKey(recorded.position);
      const head = await heads.findOne({ _id: ids.userId });
      const headPos = (head as (SyncHeadDoc & { _pos?: string }) | null)?._pos;
      const tagEvent = ids.subject.kind === 'tag' ? parseTagEvent(recorded) : null;
      const follow = async (moved: readonly { tagId: string }[]) => {
        if (ids.subject.kind !== 'tag' || !tagEvent) return;
        const { position, revision } = recorded;
        const at = { userId: ids.userId, tagId: ids.subject.tagId, position, revision };
        await followTagEvent(store, at, tagEvent, moved);
      };
      if (head && headPos !== undefined && headPos >= key) {
        // Already numbered. Rewrite the changes if they were the last ones and might be missing.
        if (head.last.position === key) {
          const moved = head.moved ?? [];
          for (const change of [head.last, ...moved]) {
            await changes.replaceOne({ _id: change._id }, change, { upsert: true });
          }
          await follow(moved.flatMap((c) => (c.kind === 'tag' ? [{ tagId: c.tagId }] : [])));
        }
        return;
      }
      const seq = (head?.seq ?? 0) + 1;
      const movedTags =
        tagEvent?.type === 'NoteTagDeleted' && ids.subject.kind === 'tag'
          ? await movedByDelete(store, ids.userId, ids.subject.tagId)
          : [];
      const change: SyncChangeDoc = {
        ...ids.subject,
        _id: syncChangeId(ids.userId, seq),
        userId: ids.userId,
        seq,
        change: CHANGES[recorded.type as keyof typeof CHANGES],
        revision: recorded.revision,
        at: recorded.metadata.occurredAt,
        position: key,
      };
      const moved: SyncChangeDoc[] = movedTags.map((tag, i) => ({
        ...change,
        kind: 'tag',
        tagId: tag.tagId,
        _id: syncChangeId(ids.userId, seq + 1 + i),
        seq: seq + 1 + i,
        change: 'updated',
        revision: tag.revision,
      }));
      const lastSeq = seq + moved.length;
      const oldestSeq = Math.max(head?.oldestSeq ?? 1, lastSeq - retain + 1);
      await guardedUpdate(
        heads,
        ids.userId,
        recorded.position,
        { $set: { seq: lastSeq, oldestSeq, last: change, moved } },
        { upsert: true },
      );
      for (const written of [change, ...moved]) {
        await changes.replaceOne({ _id: written._id }, written, { upsert: true });
      }
      await follow(movedTags);
      if (oldestSeq > (head?.oldestSeq ?? 1)) {
        await changes.deleteMany({ userId: ids.userId, seq: { $lt: oldestSeq } });
      }
    },
  };
}
