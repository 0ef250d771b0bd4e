import type { ItemStatus, ParticipantRole } from '../../commands/item/index.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { type ItemDoc, itemDocId, itemsOf } from '../items/document.js';
import { type PersonDoc, peopleOf, personItemsOf } from './projector.js';
import { emailKey } from '../../commands/shared/email.js';

/** Spec "Person summary". */
export interface PersonSummary {
  id: string;
  tier: PersonDoc['tier'];
  displayName: string | null;
  avatar: string | null;
  email: string | null;
  lastContactAt: number | null;
  createdAt: number;
}

export function toPersonSummary(doc: PersonDoc): PersonSummary {
  const { id, tier, displayName, avatar, email, lastContactAt, createdAt } = doc;
  return { id, tier, displayName, avatar, email, lastContactAt, createdAt };
}

/** list_people: newest first, keyset paging over the unique `_order`. */
export async function listPeople(
  store: ReadStore,
  query: { workspaceId: string; after?: string | null; limit: number },
): Promise<{ people: PersonDoc[]; nextAfter: string | null }> {
  const filter: Record<string, unknown> = { _ws: query.workspaceId };
  if (query.after) filter._order = { $gt: query.after };
  const docs = await peopleOf(store).find(filter, { sort: { _order: 1 }, limit: query.limit + 1 });
  const people = docs.slice(0, query.limit);
  return { people, nextAfter: docs.length > query.limit ? people.at(-1)!._order : null };
}

export function personByEmail(store: ReadStore, query: { workspaceId: string; email: string }) {
  return peopleOf(store).findOne({
    _ws: query.workspaceId,
    email: emailKey(query.email),
  });
}

/** "Open" for people and follow-up: an item not yet shipped or declined. */
export const OPEN_STATUSES: readonly ItemStatus[] = ['new', 'planned', 'in-progress'];

export interface PersonItem {
  id: string;
  productId: string;
  title: string;
  status: ItemStatus;
  role: ParticipantRole;
  createdAt: number | null;
}

/**
 * get_person without `awaitingReply` (derived per request by the caller from `threads`, the
 * person's listed item documents, whose `_lastSpeaker` says who spoke last). Merged items are
 * left out: the person's roles were carried over to the survivor.
 */
export async function getPerson(
  store: ReadStore,
  query: { workspaceId: string; personId: string },
): Promise<{
  person: PersonSummary;
  items: PersonItem[];
  openItemCount: number;
  productKeys: string[];
  threads: ItemDoc[];
} | null> {
  const person = await peopleOf(store).findOne({ _id: query.personId, _ws: query.workspaceId });
  if (!person) return null;
  const roles = await personItemsOf(store).find({
    personId: query.personId,
    _ws: query.workspaceId,
  });
  const docs = await itemsOf(store).find({
    _id: { $in: roles.map((r) => itemDocId(r._ws, r.itemId)) },
    _mergedInto: null,
  });
  const byKey = new Map(docs.map((d) => [d.id, d]));
  const items: Array<PersonItem & { n: number }> = [];
  for (const r of roles) {
    const doc = byKey.get(r.itemId);
    if (!doc) continue;
    items.push({
      n: doc._n,
      id: doc.id,
      productId: doc.productId,
      title: doc.title,
      status: doc.status,
      role: r.role,
      createdAt: doc.createdAt,
    });
  }
  // newest first; ties (one moment) by product, then the later item first, as list_items
  // orders them (their keys as text put TIE-2 before TIE-11)
  items.sort(
    (a, b) =>
      (b.createdAt ?? 0) - (a.createdAt ?? 0) ||
      (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : b.n - a.n),
  );
  return {
    person: toPersonSummary(person),
    items: items.map(({ n: _n, ...item }) => item),
    openItemCount: items.filter((i) => OPEN_STATUSES.includes(i.status)).length,
    productKeys: [...new Set(items.map((i) => i.productId))].sort(),
    threads: docs,
  };
}
