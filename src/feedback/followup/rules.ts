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
 *  - awaitingReply(P): some open item's last speaker is P, speaking as a person — or P's
 *    question on an open thread merged into that item was carried over by the merge and no maker
 *    or agent replied on the item since (projections/items/waiting.ts): the merged thread is
 *    read-only, so the survivor is where P still waits.
 *  - repliesOwed: the open items on which someone waits (the same predicate).
 *  - stalePromises: items `planned` or `in-progress` whose last status change is MORE than
 *    STALE_PROMISE_DAYS (default 30) days before now.
 *  - shippedUnnotified: items `shipped` with no notification since they shipped — none
 *    recorded after the last status change (shipping again after a notification counts anew).
 *    Told by the order of the item's events, not by `notifiedAt` against `statusChangedAt`:
 *    two events may carry one time (the same millisecond, or after the clock was set back).
 *    A merge that brings people nobody told it shipped puts it back (commands/item/merge.ts).
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
> &
  Partial<Pick<ItemDoc, '_carriedWaiting'>>;

export function isOpen(item: Pick<ItemDoc, 'status' | '_mergedInto'>): boolean {
  return item._mergedInto === null && OPEN_STATUSES.includes(item.status);
}

/**
 * Who waits on this open thread, and since when: its last speaker when that is a person, and
 * the people a merge carried over whose question no maker or agent answered here since.
 */
export function waitingOn(item: FollowupFacts): { id: string; at: number }[] {
  if (!isOpen(item)) return [];
  const { kind, id, at } = item._lastSpeaker;
  return [...(kind === 'person' ? [{ id, at }] : []), ...(item._carriedWaiting ?? [])];
}

/** The thread waits on the maker: someone on it spoke last and nobody answered them. */
export function owesReply(item: FollowupFacts): boolean {
  return waitingOn(item).length > 0;
}

/** This person waits on this open thread. */
export function isAwaitingReplyOn(item: FollowupFacts, personId: string): boolean {
  return waitingOn(item).some((waiter) => waiter.id === personId);
}

/** When the longest wait on the thread began (repliesOwed's order). */
export function waitingSince(item: FollowupFacts): number {
  return Math.min(...waitingOn(item).map((waiter) => waiter.at));
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
