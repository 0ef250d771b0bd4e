/**
 * The follow-up rules, derived at read time from the items read model and never stored
 * (DESIGN.md: "Values that depend on 'now' or on the reader (such as `awaitingReply`) are
 * derived at read time"). who_needs_followup and get_person both use these predicates, so a
 * thread in `repliesOwed` is exactly a thread on which its last speaker is `awaitingReply`.
 *
 * Vocabulary:
 *  - open item: status `new`, `planned` or `in-progress` and not merged into another item
 *    (a merged item leaves every listing; its people live on in the survivor). `shipped` and
 *    `declined` items are closed.
 *  - thread: the item's whole conversation — the submission followed by every reply, in order.
 *  - speaking: submitting the item (as a person) or posting a reply. A +1 is not speaking.
 *  - answering: a reply whose author is a `maker` (personal token, ID token) or an `agent`
 *    (OAuth client). A reply by a person answers nobody: it makes that person the one waiting.
 *
 * Rules (spec: "awaitingReply: true when the person spoke last on an open thread and is still
 * waiting"):
 *  - awaitingReply(P): some open item's last speaker is P, speaking as a person.
 *  - repliesOwed: the open items whose last speaker is a person (someone waits on the maker).
 *  - stalePromises: items `planned` or `in-progress` whose last status change is MORE than
 *    STALE_PROMISE_DAYS (default 30) days before now.
 *  - shippedUnnotified: items `shipped` with no notification since they shipped — none
 *    recorded after the last status change (shipping again after a notification counts anew).
 *    Told by the order of the item's events, not by `notifiedAt` against `statusChangedAt`:
 *    two events may carry one time (the same millisecond, or after the clock was set back).
 */
import type { ItemStatus } from '../../../commands/item/index.js';
import type { ItemDoc } from '../../../projections/items/document.js';

export const OPEN_STATUSES: readonly ItemStatus[] = ['new', 'planned', 'in-progress'];
export const PROMISE_STATUSES: readonly ItemStatus[] = ['planned', 'in-progress'];
export const DAY_MS = 86_400_000;

export type FollowupFacts = Pick<
  ItemDoc,
  | 'status'
  | 'statusChangedAt'
  | 'notifiedAt'
  | 'createdAt'
  | '_mergedInto'
  | '_lastSpeaker'
  | '_announced'
>;

export function isOpen(item: Pick<ItemDoc, 'status' | '_mergedInto'>): boolean {
  return item._mergedInto === null && OPEN_STATUSES.includes(item.status);
}

/** The thread waits on the maker: its last speaker is a person (not a maker or agent). */
export function owesReply(item: FollowupFacts): boolean {
  return isOpen(item) && item._lastSpeaker.kind === 'person';
}

/** This person spoke last on this open thread. */
export function isAwaitingReplyOn(item: FollowupFacts, personId: string): boolean {
  return owesReply(item) && item._lastSpeaker.id === personId;
}

/** get_person's `awaitingReply` over the person's items. */
export function awaitingReply(items: readonly FollowupFacts[], personId: string): boolean {
  return items.some((item) => isAwaitingReplyOn(item, personId));
}

/**
 * A promise (planned / in-progress) with no status change for longer than `staleDays`.
 * `statusChangedAt` is always set on such an item (it left `new`); `createdAt` is the fallback.
 */
export function isStalePromise(item: FollowupFacts, now: number, staleDays: number): boolean {
  if (item._mergedInto !== null || !PROMISE_STATUSES.includes(item.status)) return false;
  const since = item.statusChangedAt ?? item.createdAt;
  return now - since > staleDays * DAY_MS;
}

/** Shipped, and nobody was told since it shipped. */
export function isShippedUnnotified(item: FollowupFacts): boolean {
  return item._mergedInto === null && item.status === 'shipped' && !item._announced;
}
