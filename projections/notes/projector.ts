/**
 * Projects note events into the `notes` collection. Every event becomes exactly one
 * position-guarded update of its note's document, so replaying events changes nothing.
 * Any change (PUT, tags, trash, restore) moves `updatedAt`, which orders the list.
 */
import {
  noteStreamPrefix,
  noteEventTypes,
  parseNoteEvent,
  parseNoteStreamId,
} from '../../commands/note/index.js';
import type { Update } from '../../src/readstore/types.js';
import { guardedUpdate } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import { type NoteDoc, noteDocId, notesCollection } from './document.js';

export function notesProjector(): Projector {
  return {
    name: 'notes',
    collections: [notesCollection],
    filter: { streamPrefixes: [noteStreamPrefix], eventTypes: noteEventTypes },
    async setup(store) {
      const notes = store.collection(notesCollection);
      await notes.createIndex({
        keys: { userId: 1, updatedAt: -1, id: -1 },
        name: 'by_user_recent',
      });
    },
    async apply(recorded, store) {
      const ids = parseNoteStreamId(recorded.streamId);
      const event = parseNoteEvent(recorded);
      if (!ids || !event) return;
      const at = recorded.metadata.occurredAt;
      const touched = { updatedAt: at, revision: recorded.revision };
      let update: Update;
      switch (event.type) {
        case 'NoteCreated': {
          const doc: Omit<NoteDoc, '_id'> = {
            id: ids.noteId,
            userId: ids.userId,
            title: event.data.title,
            content: event.data.content,
            tags: event.data.tagIds,
            metadata: event.data.metadata,
            createdAt: at,
            updatedAt: at,
            deletedAt: null,
            revision: recorded.revision,
          };
          update = { $set: doc };
          break;
        }
        case 'NoteUpdated': {
          const { title, content, tagIds, metadata } = event.data;
          update = { $set: { title, content, tags: tagIds, metadata, ...touched } };
          break;
        }
        case 'TagAddedToNote':
          update = { $addToSet: { tags: event.data.tagId }, $set: touched };
          break;
        case 'TagRemovedFromNote':
          update = { $pull: { tags: event.data.tagId }, $set: touched };
          break;
        case 'NoteTrashed':
          update = { $set: { deletedAt: at, ...touched } };
          break;
        case 'NoteRestored':
          update = { $set: { deletedAt: null, ...touched } };
          break;
        default: {
          const _exhaustive: never = event;
          return _exhaustive;
        }
      }
      await guardedUpdate(
        store.collection<NoteDoc>(notesCollection),
        noteDocId(ids.userId, ids.noteId),
        recorded.position,
        update,
        { upsert: event.type === 'NoteCreated' },
      );
    },
  };
}
