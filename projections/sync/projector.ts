/**
 * Builds the sync change feed from note events. Sequence numbers are assigned from a per-user
 * head document, guarded by position like every projector write, so a replay assigns nothing
 * twice. The head also keeps the last change it numbered: if the process stopped between
 * advancing the head and writing that change (possible on MongoDB, where writes are not one
 * transaction), the replay of the same event writes the change again from the head.
 * Numbering is deterministic in log order, so a rebuild reproduces the same sequence.
 */
import {
  noteEventTypes,
  noteStreamPrefix,
  parseNoteStreamId,
  type NoteEventType,
} from '../../commands/note/index.js';
import { guardedUpdate, positionKey } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import {
  defaultSyncRetention,
  type SyncChangeDoc,
  type SyncChangeKind,
  type SyncHeadDoc,
  syncChangeId,
  syncChangesCollection,
  syncHeadsCollection,
} from './document.js';

function changeKind(type: NoteEventType): SyncChangeKind {
  switch (type) {
    case 'NoteCreated':
      return 'created';
    case 'NoteUpdated':
    case 'TagAddedToNote':
    case 'TagRemovedFromNote':
      return 'updated';
    case 'NoteTrashed':
      return 'trashed';
    case 'NoteRestored':
      return 'restored';
    default: {
      const _exhaustive: never = type;
      return _exhaustive;
    }
  }
}

export function syncProjector(options: { retainPerUser?: number } = {}): Projector {
  const retain = options.retainPerUser ?? defaultSyncRetention;
  return {
    name: 'note-sync',
    collections: [syncChangesCollection, syncHeadsCollection],
    filter: { streamPrefixes: [noteStreamPrefix], eventTypes: noteEventTypes },
    async setup(store) {
      await store
        .collection(syncChangesCollection)
        .createIndex({ keys: { userId: 1, seq: 1 }, unique: true, name: 'by_user_seq' });
    },
    async apply(recorded, store) {
      const ids = parseNoteStreamId(recorded.streamId);
      if (!ids || !noteEventTypes.includes(recorded.type as NoteEventType)) return;
      const heads = store.collection<SyncHeadDoc>(syncHeadsCollection);
      const changes = store.collection<SyncChangeDoc>(syncChangesCollection);
      const key = positionKey(recorded.position);
      const head = await heads.findOne({ _id: ids.userId });
      const headPos = (head as (SyncHeadDoc & { _pos?: string }) | null)?._pos;
      if (head && headPos !== undefined && headPos >= key) {
        // Already numbered. Rewrite the change if it was the last one and might be missing.
        if (head.last.position === key) {
          await changes.replaceOne({ _id: head.last._id }, head.last, { upsert: true });
        }
        return;
      }
      const seq = (head?.seq ?? 0) + 1;
      const change: SyncChangeDoc = {
        _id: syncChangeId(ids.userId, seq),
        userId: ids.userId,
        seq,
        noteId: ids.noteId,
        change: changeKind(recorded.type as NoteEventType),
        revision: recorded.revision,
        at: recorded.metadata.occurredAt,
        position: key,
      };
      const oldestSeq = Math.max(head?.oldestSeq ?? 1, seq - retain + 1);
      await guardedUpdate(
        heads,
        ids.userId,
        recorded.position,
        { $set: { seq, oldestSeq, last: change } },
        { upsert: true },
      );
      await changes.replaceOne({ _id: change._id }, change, { upsert: true });
      if (oldestSeq > (head?.oldestSeq ?? 1)) {
        await changes.deleteMany({ userId: ids.userId, seq: { $lt: oldestSeq } });
      }
    },
  };
}
