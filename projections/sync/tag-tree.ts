/**
 * The tag tree as the sync feed follows it, in log order: which tags each tag's children are, so
 * that a delete, which moves the deleted tag's children up to its parent (projections/tags: the
 * events keep the parent each child was given), is told to a device as a change of each child
 * moved. A device that keeps a table of tags from the feed (README: it "updates it from them")
 * otherwise kept them under a tag no list shows.
 *
 * One document per tag, position-guarded like every projector write (a replay changes nothing
 * twice); `parentId` is the parent the tag is shown under: null or a tag not deleted when it was
 * set, as the tags read model files it.
 */
import type { TagEvent } from '../../commands/tag/index.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { guardedUpdate } from '../shared/guard.js';

export const syncTagsCollection = 'note_sync_tags';

type SyncTagDoc = {
  /** `<userId>.<tagId>` */
  _id: string;
  userId: string;
  tagId: string;
  parentId: string | null;
  deleted: boolean;
  /** the tag's revision after its last event */
  revision: number;
};

const docId = (userId: string, tagId: string) => `${userId}.${tagId}`;

export async function setupTagTree(store: ReadStore): Promise<void> {
  await store
    .collection(syncTagsCollection)
    .createIndex({ keys: { userId: 1, parentId: 1 }, name: 'by_user_parent' });
}

/** The tags a delete of `tagId` moves: those shown under it, with their revisions. */
export async function movedByDelete(
  store: ReadStore,
  userId: string,
  tagId: string,
): Promise<{ tagId: string; revision: number }[]> {
  const children = await store
    .collection<SyncTagDoc>(syncTagsCollection)
    .find({ userId, parentId: tagId }, { sort: { tagId: 1 } });
  return children.map((c) => ({ tagId: c.tagId, revision: c.revision }));
}

/** Follows one tag event; `moved` are the tags a delete moves (movedByDelete, before this). */
export async function followTagEvent(
  store: ReadStore,
  at: { userId: string; tagId: string; position: bigint; revision: number },
  event: TagEvent,
  moved: readonly { tagId: string }[],
): Promise<void> {
  const tags = store.collection<SyncTagDoc>(syncTagsCollection);
  const { userId, tagId, position, revision } = at;
  const _id = docId(userId, tagId);
  if (event.type === 'NoteTagDeleted') {
    await guardedUpdate(tags, _id, position, { $set: { deleted: true, revision } });
    const parentId = (await tags.findOne({ _id }))?.parentId ?? null;
    for (const child of moved) {
      await guardedUpdate(tags, docId(userId, child.tagId), position, { $set: { parentId } });
    }
    return;
  }
  let parentId = event.data.parentId;
  if (parentId !== null) {
    // a create or move under a tag deleted first in the log is filed where its children went
    const parent = await tags.findOne({ _id: docId(userId, parentId) });
    if (parent?.deleted) parentId = parent.parentId;
  }
  const fields = { userId, tagId, parentId, revision };
  const set = event.type === 'NoteTagCreated' ? { ...fields, deleted: false } : fields;
  await guardedUpdate(tags, _id, position, { $set: set }, { upsert: true });
}
