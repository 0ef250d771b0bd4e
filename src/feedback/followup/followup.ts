/**
 * who_needs_followup: three lists over every product of the workspace, derived at read time.
 * Each list is selected by a read-store filter that narrows to candidates and then decided by
 * the predicates of rules.ts, so the answer is exactly what the rules say.
 *
 * Order: the longest-waiting first — shippedUnnotified and stalePromises by `statusChangedAt`,
 * repliesOwed by the time the person spoke; ties by product key, then item number (WEB-3
 * before WEB-19, which their keys compared as text would put first).
 */
import { type ItemDoc, itemsOf } from '../../../projections/items/document.js';
import type { ReadStore } from '../../readstore/types.js';
import {
  isShippedUnnotified,
  isStalePromise,
  OPEN_STATUSES,
  owesReply,
  PROMISE_STATUSES,
  waitingSince,
} from './rules.js';

/** Spec "Follow-up entry": all fields required. */
export interface FollowUpEntry {
  id: string;
  productId: string;
  title: string;
  status: string;
  statusChangedAt: number | null;
  plusOneCount: number;
}

export interface Followup {
  shippedUnnotified: FollowUpEntry[];
  stalePromises: FollowUpEntry[];
  repliesOwed: FollowUpEntry[];
}

export function toFollowUpEntry(doc: ItemDoc): FollowUpEntry {
  const { id, productId, title, status, statusChangedAt, plusOneCount } = doc;
  return { id, productId, title, status, statusChangedAt, plusOneCount };
}

function byNumber(a: ItemDoc, b: ItemDoc): number {
  if (a.productId !== b.productId) return a.productId < b.productId ? -1 : 1;
  return a._n - b._n;
}

export async function whoNeedsFollowup(
  store: ReadStore,
  query: { workspaceId: string; now: number; staleDays: number },
): Promise<Followup> {
  const items = itemsOf(store);
  const base = { _ws: query.workspaceId, _mergedInto: null };
  const [shipped, promises, open] = await Promise.all([
    items.find({ ...base, status: 'shipped' }),
    items.find({ ...base, status: { $in: [...PROMISE_STATUSES] } }),
    items.find({
      ...base,
      status: { $in: [...OPEN_STATUSES] },
      $or: [{ '_lastSpeaker.kind': 'person' }, { '_carriedWaiting.0': { $exists: true } }],
    }),
  ]);
  const byChange = (a: ItemDoc, b: ItemDoc) =>
    (a.statusChangedAt ?? a.createdAt) - (b.statusChangedAt ?? b.createdAt) || byNumber(a, b);
  const bySpoke = (a: ItemDoc, b: ItemDoc) => waitingSince(a) - waitingSince(b) || byNumber(a, b);
  return {
    shippedUnnotified: shipped.filter(isShippedUnnotified).sort(byChange).map(toFollowUpEntry),
    stalePromises: promises
      .filter((doc) => isStalePromise(doc, query.now, query.staleDays))
      .sort(byChange)
      .map(toFollowUpEntry),
    repliesOwed: open.filter(owesReply).sort(bySpoke).map(toFollowUpEntry),
  };
}
