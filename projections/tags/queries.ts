/** Queries over the tags read model, always scoped to the caller. */
import { tagNameKey } from '../../commands/tag/index.js';
import type { Filter, ReadStore } from '../../src/readstore/types.js';
import { byName } from '../shared/by-name.js';
import { publicTag, type TagDoc, type TagView, tagDocId, tagsCollection } from './document.js';

/** The caller's tags by name (then id); soft-deleted ones only when asked for. */
export async function listTags(
  store: ReadStore,
  userId: string,
  options: { includeDeleted?: boolean } = {},
): Promise<TagView[]> {
  const filter: Filter = { userId };
  if (!options.includeDeleted) filter.deletedAt = null;
  const docs = await store
    .collection<TagDoc>(tagsCollection)
    .find(filter, { sort: { nameKey: 1, id: 1 } });
  return docs.sort(byName).map(publicTag);
}

/** The ids of the caller's active tags (the most one may have: NOTES_TAGS_PER_USER). */
export async function activeTagIds(store: ReadStore, userId: string): Promise<string[]> {
  const docs = await store
    .collection<TagDoc>(tagsCollection)
    .find({ userId, deletedAt: null }, { projection: { id: 1 } });
  return docs.map((doc) => doc.id);
}

/** One tag, soft-deleted or not; null when it is not the caller's. */
export async function getTag(
  store: ReadStore,
  userId: string,
  tagId: string,
): Promise<TagView | null> {
  const doc = await store
    .collection<TagDoc>(tagsCollection)
    .findOne({ _id: tagDocId(userId, tagId), userId });
  return doc ? publicTag(doc) : null;
}

/** Several of the caller's tags by id, deleted ones included (notes keep deleted tags). */
export async function getTags(
  store: ReadStore,
  userId: string,
  tagIds: readonly string[],
): Promise<TagView[]> {
  if (tagIds.length === 0) return [];
  const docs = await store
    .collection<TagDoc>(tagsCollection)
    .find({ userId, _id: { $in: tagIds.map((id) => tagDocId(userId, id)) } });
  return docs.map(publicTag);
}

/** The caller's active tag with this name (case and surrounding space ignored), if any. */
export async function findTagByName(
  store: ReadStore,
  userId: string,
  name: string,
): Promise<TagView | null> {
  const doc = await store
    .collection<TagDoc>(tagsCollection)
    .findOne({ userId, nameKey: tagNameKey(name), deletedAt: null });
  return doc ? publicTag(doc) : null;
}
