import type { ItemStatus, PeopleNotified } from './events.js';
import type { ItemFacts } from './state.js';

/** A requester as the notify action sees them; eligibility needs person data (a lookup). */
export interface NotifyCandidate {
  personId: string;
  eligible: boolean;
  /** why not eligible: `anonymous`, `no-email`, … */
  reason?: string;
}

export type NotifyRecipient = PeopleNotified['data']['recipients'][number];

/**
 * Spec rule: `delivered` means eligible, not that anything arrived. A person already told about
 * the item's current status is skipped with reason `already-notified`, so repeating
 * notify_people never double-counts.
 */
export function planNotification(
  state: Pick<ItemFacts, 'notified' | 'itemStatus'>,
  candidates: readonly NotifyCandidate[],
): NotifyRecipient[] {
  const seen = new Set<string>();
  const plan: NotifyRecipient[] = [];
  for (const c of candidates) {
    if (seen.has(c.personId)) continue;
    seen.add(c.personId);
    if (!c.eligible)
      plan.push({ personId: c.personId, delivered: false, reason: c.reason ?? 'ineligible' });
    else if (state.notified[c.personId] === state.itemStatus) {
      plan.push({ personId: c.personId, delivered: false, reason: 'already-notified' });
    } else plan.push({ personId: c.personId, delivered: true });
  }
  return plan;
}

export function wasNotifiedAbout(
  state: Pick<ItemFacts, 'notified'>,
  personId: string,
): ItemStatus | null {
  return state.notified[personId] ?? null;
}
