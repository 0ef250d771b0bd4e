import { InvalidArgument } from '../shared/errors.js';
import type { InsidePlusOnes, ItemsUnmerged, ItemUnmerged, ParticipantRole } from './events.js';
import { type Contribution, participantsOf, rolesOf, plusOnesOf } from './people.js';
import { contributionsIn, countsPlusOne, hasPlusOneVia, peopleIn } from './roster.js';
import type { ItemFacts } from './state.js';

/**
 * Unmerge on the survivor: drop every contribution that came through the unmerged items (their
 * people handed over by the merge, and +1s given on their keys while merged) and keep the rest —
 * what the survivor had plus what reached it independently, in the order it happened. A person
 * who +1'd both items stays on both. A key already unmerged is skipped (repeating an unmerge
 * appends nothing); a key that was never merged here is refused.
 *
 * `inside`: for an unmerged item, the keys of the items living inside it (merged into it, at any
 * depth; the caller reads them from those items). A +1 given on one of them landed here too (A
 * merged into B, then B into C: a +1 on A lands on C), and goes back with B (`insidePlusOnes`).
 */
export function decideUnmerge(
  keys: readonly string[],
  survivor: ItemFacts,
  inside: Readonly<Record<string, readonly string[]>> = {},
): ItemsUnmerged[] {
  const unmerging = new Set<string>();
  for (const key of keys) {
    if (survivor.merges[key] !== undefined) unmerging.add(key);
    else if (survivor.unmerges[key] === undefined) {
      throw new InvalidArgument(`${key} was never merged into ${survivor.itemKey}`);
    }
  }
  if (unmerging.size === 0) return [];
  // the unmerged item each contribution leaves with: its own key's, or the key it lives inside
  const outerOf = new Map<string, string>();
  for (const key of unmerging) for (const within of inside[key] ?? []) outerOf.set(within, key);
  for (const key of unmerging) outerOf.set(key, key);
  const leavesWith = (c: Contribution): string | undefined => {
    if (c.source === 'own' || c.from === null) return undefined;
    if (unmerging.has(c.from)) return c.from;
    return c.source === 'addressed' ? outerOf.get(c.from) : undefined;
  };
  const contributions = contributionsIn(survivor.roster);
  const kept = contributions.filter((c) => leavesWith(c) === undefined);
  const before = peopleIn(survivor.roster);
  const after = rolesOf(kept);
  const removedPeople = Object.keys(before).filter((personId) => !(personId in after));
  const changedRoles: { personId: string; role: ParticipantRole }[] = [];
  for (const [personId, role] of Object.entries(after)) {
    if (before[personId] !== role) changedRoles.push({ personId, role });
  }
  // each person who leaves counts once, for the first unmerged item that brought them
  const broughtBy = new Map<string, string>();
  for (const c of contributions) {
    const leaving = leavesWith(c);
    if (leaving !== undefined && !(c.personId in after) && !broughtBy.has(c.personId))
      broughtBy.set(c.personId, leaving);
  }
  const plusOnesOn = (key: string) => [
    ...new Set(
      contributions
        .filter((c) => c.source === 'addressed' && c.from === key)
        .map((c) => c.personId),
    ),
  ];
  const unmerged: ItemsUnmerged['data']['unmerged'] = [...unmerging].map((itemKey) => {
    const insidePlusOnes = (inside[itemKey] ?? [])
      .filter((key) => outerOf.get(key) === itemKey)
      .map((key) => ({ itemKey: key, plusOnes: plusOnesOn(key) }))
      .filter((given) => given.plusOnes.length > 0);
    return {
      itemKey,
      restoredPeople: [...broughtBy.values()].filter((key) => key === itemKey).length,
      returnedPlusOnes: plusOnesOn(itemKey),
      ...(insidePlusOnes.length ? { insidePlusOnes } : {}),
    };
  });
  return [
    {
      type: 'ItemsUnmerged',
      data: {
        unmerged,
        removedPeople,
        changedRoles,
        participants: participantsOf(kept),
        plusOnes: plusOnesOf(kept, survivor.submitterId),
      },
    },
  ];
}

/** unmerge_items' `restoredPeople`: people who left the survivor with these items. */
export function restoredPeopleCount(survivor: ItemFacts, itemKeys: readonly string[]): number {
  return [...new Set(itemKeys)].reduce(
    (sum, key) => sum + (survivor.unmerges[key]?.restoredPeople ?? 0),
    0,
  );
}

/**
 * Whether `itemKey` was given back by the survivor but has not taken itself back yet (an
 * unmerge interrupted between its two steps).
 */
export function unmergePending(survivor: ItemFacts, itemKey: string): boolean {
  return survivor.merges[itemKey] === undefined && survivor.unmerges[itemKey] !== undefined;
}

/**
 * On the merged item: it takes triage commands again, with the +1s given on its key while it was
 * merged (those already counted by it, and its submitter, left out).
 * And with the +1s given meanwhile on the items living inside it (`inside`), as given on them.
 */
export function decideUnmark(
  survivorKey: string,
  plusOnes: readonly string[],
  item: ItemFacts,
  inside: InsidePlusOnes = [],
): ItemUnmerged[] {
  const fresh = [...new Set(plusOnes)].filter(
    (personId) => personId !== item.submitterId && !countsPlusOne(item.roster, personId),
  );
  // given on an item living inside this one: recorded as given on it, as AddPlusOne does
  const insidePlusOnes = inside
    .map(({ itemKey, plusOnes: given }) => ({
      itemKey,
      plusOnes: [...new Set(given)].filter(
        (personId) => !hasPlusOneVia(item.roster, personId, 'addressed', itemKey),
      ),
    }))
    .filter((given) => given.plusOnes.length > 0);
  return [
    {
      type: 'ItemUnmerged',
      data: { survivorKey, plusOnes: fresh, ...(insidePlusOnes.length ? { insidePlusOnes } : {}) },
    },
  ];
}
