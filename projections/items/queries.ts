import { type ItemStatus, tagIdOf } from '../../commands/item/index.js';
import type { Filter, ReadStore } from '../../src/readstore/types.js';
import { peopleOf } from '../people/projector.js';
import { type Reply, listReplies } from '../replies/queries.js';
import { membershipsOfUser, workspaceById } from '../workspaces/queries.js';
import { type Item, type ItemDoc, itemDocId, itemsOf, toItem } from './document.js';

/** Items that can be listed: merged items leave every listing (commands/item/decide.ts). */
export const LISTED: Filter = { _mergedInto: null };

export interface ItemFilters {
  status?: ItemStatus;
  tag?: string;
  personId?: string;
}

/** The MongoDB filter behind list_items; summaries and counts reuse it so they agree. */
export function itemsFilter(
  workspaceId: string,
  productKey: string,
  filters: ItemFilters = {},
): Filter {
  const filter: Filter = { _ws: workspaceId, productId: productKey, ...LISTED };
  if (filters.status) filter.status = filters.status;
  if (filters.tag) filter.tagIds = tagIdOf(filters.tag);
  if (filters.personId) filter._people = filters.personId;
  return filter;
}

export interface ItemPage {
  items: ItemDoc[];
  /** the rank to pass as `after` for the next page; null at the end */
  nextAfter: string | null;
}

/**
 * list_items with keyset paging over `rank` (unique per product, fixed at capture): the page
 * after `after` is everything ranked strictly later, so concurrent captures never shift it.
 */
export async function listItems(
  store: ReadStore,
  query: ItemFilters & {
    workspaceId: string;
    productKey: string;
    after?: string | null;
    limit: number;
  },
): Promise<ItemPage> {
  const filter = itemsFilter(query.workspaceId, query.productKey, query);
  if (query.after) filter.rank = { $gt: query.after };
  const docs = await itemsOf(store).find(filter, { sort: { rank: 1 }, limit: query.limit + 1 });
  const items = docs.slice(0, query.limit);
  return { items, nextAfter: docs.length > query.limit ? items.at(-1)!.rank : null };
}

export function findItem(
  store: ReadStore,
  query: { workspaceId: string; itemKey: string },
): Promise<ItemDoc | null> {
  return itemsOf(store).findOne({ _id: itemDocId(query.workspaceId, query.itemKey) });
}

/** Spec "Participant (returned by get_item)"; names and avatars are the person's current ones. */
export interface Participant {
  personId: string;
  role: string;
  displayName: string | null;
  avatar: string | null;
  context: string | null;
}

export async function participantsOf(store: ReadStore, doc: ItemDoc): Promise<Participant[]> {
  const ids = doc._participants.map((p) => p.personId);
  const people = await peopleOf(store).find({ _id: { $in: ids } });
  const byId = new Map(people.map((p) => [p._id, p]));
  return doc._participants.map(({ personId, role, context }) => ({
    personId,
    role,
    displayName: byId.get(personId)?.displayName ?? null,
    avatar: byId.get(personId)?.avatar ?? null,
    context,
  }));
}

/** get_item: the item, its whole reply thread and its participants; null when unknown. */
export async function getItem(
  store: ReadStore,
  query: { workspaceId: string; productKey: string; itemKey: string },
): Promise<{ item: Item; replies: Reply[]; participants: Participant[]; doc: ItemDoc } | null> {
  const doc = await findItem(store, query);
  if (!doc || doc.productId !== query.productKey) return null;
  const [replies, participants] = await Promise.all([
    listReplies(store, query),
    participantsOf(store, doc),
  ]);
  return { item: toItem(doc), replies, participants, doc };
}

/** resolve_item: the item with this key in every workspace the user belongs to. */
export async function resolveItem(
  store: ReadStore,
  query: { userId: string; itemKey: string; workspaceId?: string },
): Promise<{ slug: string; workspaceId: string; item: Item }[]> {
  const memberships = query.workspaceId
    ? await workspaceAsMembership(store, query.workspaceId)
    : await membershipsOfUser(store, query.userId);
  if (memberships.length === 0) return [];
  const slugs = new Map(memberships.map((m) => [m.workspaceId, m.slug]));
  const ids = memberships.map((m) => itemDocId(m.workspaceId, query.itemKey));
  const docs = await itemsOf(store).find({ _id: { $in: ids } }, { sort: { _ws: 1 } });
  return docs.map((doc) => ({
    slug: slugs.get(doc._ws) ?? '',
    workspaceId: doc._ws,
    item: toItem(doc),
  }));
}

/** One workspace in the shape of a membership list (callers bound to a workspace, not a user). */
async function workspaceAsMembership(
  store: ReadStore,
  workspaceId: string,
): Promise<{ workspaceId: string; slug: string }[]> {
  const workspace = await workspaceById(store, workspaceId);
  return workspace ? [{ workspaceId, slug: workspace.slug }] : [];
}

/**
 * The titles of some of a workspace's items, by key (the public changelog names the items its
 * entries link): one read by `_id`, titles only; a key with no item is left out.
 */
export async function itemTitles(
  store: ReadStore,
  workspaceId: string,
  itemKeys: string[],
): Promise<Map<string, string>> {
  const keys = [...new Set(itemKeys)];
  if (keys.length === 0) return new Map();
  const docs = await itemsOf(store).find(
    { _id: { $in: keys.map((key) => itemDocId(workspaceId, key)) } },
    { projection: { id: 1, title: 1 } },
  );
  return new Map(docs.map((doc) => [doc.id, doc.title]));
}
