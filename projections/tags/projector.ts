/** Projects tag events into `note_tags`; one position-guarded update per event. */
import {
  parseTagEvent,
  parseTagStreamId,
  tagEventTypes,
  tagNameKey,
  tagStreamPrefix,
} from '../../commands/tag/index.js';
import type { Update } from '../../src/readstore/types.js';
import { guardedUpdate } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import { type TagDoc, tagDocId, tagsCollection } from './document.js';

export function tagsProjector(): Projector {
  return {
    name: 'note-tags',
    collections: [tagsCollection],
    filter: { streamPrefixes: [tagStreamPrefix], eventTypes: tagEventTypes },
    async setup(store) {
      await store
        .collection(tagsCollection)
        .createIndex({ keys: { userId: 1, nameKey: 1 }, name: 'by_user_name' });
    },
    async apply(recorded, store) {
      const ids = parseTagStreamId(recorded.streamId);
      const event = parseTagEvent(recorded);
      if (!ids || !event) return;
      const at = recorded.metadata.occurredAt;
      let update: Update;
      switch (event.type) {
        case 'NoteTagCreated': {
          const { name, color, parentId } = event.data;
          const doc: Omit<TagDoc, '_id'> = {
            id: ids.tagId,
            userId: ids.userId,
            name,
            nameKey: tagNameKey(name),
            color,
            parentId,
            createdAt: at,
            updatedAt: at,
            deletedAt: null,
            revision: recorded.revision,
          };
          update = { $set: doc };
          break;
        }
        case 'NoteTagUpdated': {
          const { name, color, parentId } = event.data;
          update = {
            $set: {
              name,
              nameKey: tagNameKey(name),
              color,
              parentId,
              updatedAt: at,
              revision: recorded.revision,
            },
          };
          break;
        }
        case 'NoteTagDeleted':
          update = { $set: { deletedAt: at, updatedAt: at, revision: recorded.revision } };
          break;
        default: {
          const _exhaustive: never = event;
          return _exhaustive;
        }
      }
      await guardedUpdate(
        store.collection<TagDoc>(tagsCollection),
        tagDocId(ids.userId, ids.tagId),
        recorded.position,
        update,
        { upsert: event.type === 'NoteTagCreated' },
      );
    },
  };
}
