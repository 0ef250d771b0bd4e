/**
 * Who is on an item, and why. Every way a person reaches an item is a contribution, kept in the
 * order it happened: submitting, a +1, a reply by the person (all `own`), a merge handing over a
 * merged item's people (`merged`, from that item), a +1 given on a merged item that landed here
 * (`addressed`, to that item). The item's people follow from the contributions: each person once,
 * with the role and the context of their FIRST contribution; its +1s are the people with a +1
 * among their contributions (never the submitter).
 *
 * Keeping the source of every contribution is what makes an unmerge exact: dropping the
 * contributions of the unmerged items leaves what the item had plus what reached it
 * independently, in the order it happened. The items read model builds the same participants
 * incrementally with `contextOf` (projections/items/projector.ts); a unit test holds the two
 * together. The item's state keeps its contributions in a roster (roster.ts) that answers who is
 * on the item in O(log n) per event; the functions here define what it answers.
 */
import type { ParticipantRole } from './events.js';

export type ContributionSource = 'own' | 'merged' | 'addressed';

export interface Contribution {
  personId: string;
  role: ParticipantRole;
  source: ContributionSource;
  /** the merged item it came through (`merged`, `addressed`); null for `own` */
  from: string | null;
}

/** A participant of get_item without the person's current name and avatar. */
export interface ItemParticipant {
  personId: string;
  role: ParticipantRole;
  context: string | null;
}

export const mergedContext = (itemKey: string): string => `merged from ${itemKey}`;
export const addressedContext = (itemKey: string): string => `+1 on ${itemKey}`;

/** Why the person is here, when it is not obvious (spec "Participant": `context`). */
export function contextOf(contribution: Pick<Contribution, 'source' | 'from'>): string | null {
  const { source, from } = contribution;
  if (source === 'merged' && from) return mergedContext(from);
  if (source === 'addressed' && from) return addressedContext(from);
  return null;
}

export function participantsOf(contributions: readonly Contribution[]): ItemParticipant[] {
  const seen = new Set<string>();
  const participants: ItemParticipant[] = [];
  for (const c of contributions) {
    if (seen.has(c.personId)) continue;
    seen.add(c.personId);
    participants.push({ personId: c.personId, role: c.role, context: contextOf(c) });
  }
  return participants;
}

export function rolesOf(contributions: readonly Contribution[]): Record<string, ParticipantRole> {
  const people: Record<string, ParticipantRole> = {};
  for (const c of contributions) people[c.personId] ??= c.role;
  return people;
}

export function plusOnesOf(contributions: readonly Contribution[], submitterId: string): string[] {
  const plusOnes = new Set<string>();
  for (const c of contributions) {
    if (c.role === 'plus-one' && c.personId !== submitterId) plusOnes.add(c.personId);
  }
  return [...plusOnes];
}

/**
 * Where a +1 addressed to `addressedTo` is recorded on the item `itemKey`: its own, or one given
 * on a merged item that lives on here.
 */
export function plusOneVia(
  itemKey: string,
  addressedTo: string,
): [source: ContributionSource, from: string | null] {
  return addressedTo === itemKey ? ['own', null] : ['addressed', addressedTo];
}

/** Where a person stands on the item: their place among its +1s and its participants. */
export interface Standing {
  plusOneAt: number | null;
  participant: (Omit<ItemParticipant, 'personId'> & { at: number }) | null;
}

export function standingOf(
  contributions: readonly Contribution[],
  personId: string,
  submitterId: string,
): Standing {
  const plusOneAt = plusOnesOf(contributions, submitterId).indexOf(personId);
  const participants = participantsOf(contributions);
  const at = participants.findIndex((p) => p.personId === personId);
  const found = participants[at];
  return {
    plusOneAt: plusOneAt < 0 ? null : plusOneAt,
    participant: found ? { at, role: found.role, context: found.context } : null,
  };
}
