import type { PeopleNotified } from './events.js';
import type { ItemFacts } from './state.js';

/** A requester as the notify action sees them; eligibility needs person data (a lookup). */
export interface NotifyCandidate {
  personId: string;
  eligible: boolean;
  /** why not eligible: `anonymous`, `unverified`, `no-email`, … (src/feedback/followup/notify.ts) */
  reason?: string;
}

export type NotifyRecipient = PeopleNotified['data']['recipients'][number];

/**
 * Spec rule: `delivered` means eligible, not that anything arrived. A person already told since
 * the item last changed status is skipped with reason `already-notified`, so repeating
 * notify_people never double-counts; after a new status change (shipped again) they hear anew.
 */
export function planNotification(
  state: Pick<ItemFacts, 'notified' | 'statusChanges'>,
  candidates: readonly NotifyCandidate[],
): NotifyRecipient[] {
  const seen = new Set<string>();
  const plan: NotifyRecipient[] = [];
  for (const c of candidates) {
    if (seen.has(c.personId)) continue;
    seen.add(c.personId);
    if (!c.eligible)
      plan.push({ personId: c.personId, delivered: false, reason: c.reason ?? 'ineligible' });
    else if (state.notified.get(c.personId) === state.statusChanges) {
      plan.push({ personId: c.personId, delivered: false, reason: 'already-notified' });
    } else plan.push({ personId: c.personId, delivered: true });
  }
  return plan;
}

/**
 * Whether notify_people records an event: when someone new is told, and once per status change
 * even when nobody is eligible (all anonymous, no e-mail) — that record is what marks the item as
 * announced (notifiedAt), so it leaves who_needs_followup's shippedUnnotified.
 */
export function shouldRecordNotification(
  state: Pick<ItemFacts, 'announced' | 'statusChanges'>,
  recipients: readonly NotifyRecipient[],
): boolean {
  return recipients.some((r) => r.delivered) || state.announced !== state.statusChanges;
}
