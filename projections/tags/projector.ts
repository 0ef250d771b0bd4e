/**
 * Projects tag events into `note_tags`; one position-guarded update per event.
 *
 * A deleted tag's children move up to its parent (the top level when it had none): the spec
 * leaves the tree after a delete unsaid, and a user who deletes a tag deletes that tag, not the
 * tags filed under it, which would otherwise be listed under a tag no list shows. The events keep
 * the parent each child was given, so this is the read model's view of the tree: every stored
 * `parentId` names an active tag or is null. A delete re-parents the documents under it; a create
 * or move whose parent was deleted first in the log (ordered before the delete in the user's tag
 * tree, landed after it) is filed where the deleted parent's children went. Version 2 replays tags
 * deleted before this rule into the same tree.
 */
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
    version: 2,
    collections: [tagsCollection],
    filter: { streamPrefixes: [tagStreamPrefix], eventTypes: tagEventTypes },
    async setup(store) {
      const tags = store.collection(tagsCollection);
      await tags.createIndex({ keys: { userId: 1, nameKey: 1 }, name: 'by_user_name' });
      await tags.createIndex({ keys: { userId: 1, parentId: 1 }, name: 'by_user_parent' });
    },
    async apply(recorded, store) {
      const ids = parseTagStreamId(recorded.streamId);
      const event = parseTagEvent(recorded);
      if (!ids || !event) return;
      const tags = store.collection<TagDoc>(tagsCollection);
      const at = recorded.metadata.occurredAt;
      /** where a child of `parentId` is shown: the parent, or where a deleted one's children went */
      const shownParent = async (parentId: string | null) => {
        if (parentId === null) return null;
        const parent = await tags.findOne({ _id: tagDocId(ids.userId, parentId) });
        return parent && parent.deletedAt !== null ? parent.parentId : parentId;
      };
      let update: Update;
      switch (event.type) {
        case 'NoteTagCreated': {
          const { name, color } = event.data;
          const parentId = await shownParent(event.data.parentId);
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
          const { name, color } = event.data;
          const parentId = await shownParent(event.data.parentId);
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
      const _id = tagDocId(ids.userId, ids.tagId);
      await guardedUpdate(tags, _id, recorded.position, update, {
        upsert: event.type === 'NoteTagCreated',
      });
      if (event.type === 'NoteTagDeleted') {
        // unguarded but safe to run again: once moved, no document names the deleted tag
        const deleted = await tags.findOne({ _id });
        await tags.updateMany(
          { userId: ids.userId, parentId: ids.tagId },
          { $set: { parentId: deleted?.parentId ?? null, updatedAt: at } },
        );
      }
    },
  };
}
