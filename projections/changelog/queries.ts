import type { ReadStore } from '../../src/readstore/types.js';
import {
  type ChangelogEntryDoc,
  changelogDocId,
  changelogOf,
  type StoredChangelogEntry,
} from './projector.js';
import { stillClaimed } from './render.js';

/** A changelog entry as the public changelog shows it (the item ids, not the first alone). */
export type ChangelogEntry = Omit<StoredChangelogEntry, 'itemId'>;

/**
 * The entry as it may still be read: without the merged items an unmerge gave back, nor the
 * people who came only through them (render.ts).
 * An entry whose item left `shipped` is not listed at all (SHOWN): the board's roadmap no longer
 * shows it shipped, and the changelog must not say otherwise. It is kept, not deleted, and is
 * listed again, as published, when the item ships again.
 */
export function toChangelogEntry(doc: ChangelogEntryDoc): ChangelogEntry {
  const { id, productId, title } = doc;
  const { itemIds, body, requestedByNames, requestedByCount } = stillClaimed(doc, {
    unmerged: doc._unmerged ?? [],
    departed: doc._departed ?? [],
  });
  return {
    id,
    productId,
    itemIds,
    title,
    body,
    requestedByNames,
    requestedByCount,
    publishedAt: doc.publishedAt,
    updatedAt: doc.updatedAt,
  };
}

/** The entries a reader is shown: their announced item is shipped (toChangelogEntry). */
const SHOWN = { _shipped: { $ne: false } };

/** A product's changelog, newest first. */
export async function listChangelog(
  store: ReadStore,
  query: { workspaceId: string; productKey: string; limit?: number },
): Promise<ChangelogEntry[]> {
  const docs = await changelogOf(store).find(
    { _ws: query.workspaceId, productId: query.productKey, ...SHOWN },
    { sort: { publishedAt: -1, id: 1 }, ...(query.limit ? { limit: query.limit } : {}) },
  );
  return docs.map(toChangelogEntry);
}

export async function getChangelogEntry(
  store: ReadStore,
  query: { workspaceId: string; entryId: string },
): Promise<ChangelogEntry | null> {
  const doc = await changelogOf(store).findOne({
    _id: changelogDocId(query.workspaceId, query.entryId),
    ...SHOWN,
  });
  return doc ? toChangelogEntry(doc) : null;
}

/** Where a changelog page ends: the next page starts after this entry (newest first). */
export interface ChangelogMark {
  publishedAt: number;
  id: string;
}

/** One page of a product's changelog, newest first; stable while entries are published. */
export async function changelogPage(
  store: ReadStore,
  query: { workspaceId: string; productKey: string; after?: ChangelogMark | null; limit: number },
): Promise<{ entries: ChangelogEntry[]; next: ChangelogMark | null }> {
  const { after } = query;
  const docs = await changelogOf(store).find(
    {
      _ws: query.workspaceId,
      productId: query.productKey,
      ...SHOWN,
      ...(after
        ? {
            $or: [
              { publishedAt: { $lt: after.publishedAt } },
              { publishedAt: after.publishedAt, id: { $gt: after.id } },
            ],
          }
        : {}),
    },
    { sort: { publishedAt: -1, id: 1 }, limit: query.limit + 1 },
  );
  const entries = docs.slice(0, query.limit).map(toChangelogEntry);
  const last = entries.at(-1);
  return {
    entries,
    next: docs.length > query.limit && last ? { publishedAt: last.publishedAt, id: last.id } : null,
  };
}
