import { InvalidArgument } from '../shared/errors.js';
import type { ItemsUnmerged, ItemUnmerged, ParticipantRole } from './events.js';
import { type Contribution, participantsOf, rolesOf, plusOnesOf } from './people.js';
import { contributionsIn, countsPlusOne, peopleIn } from './roster.js';
import type { ItemFacts } from './state.js';

/**
 * Unmerge on the survivor: drop every contribution that came through the unmerged items (their
 * people handed over by the merge, and +1s given on their keys while merged) and keep the rest —
 * what the survivor had plus what reached it independently, in the order it happened. A person
 * who +1'd both items stays on both. A key already unmerged is skipped (repeating an unmerge
 * appends nothing); a key that was never merged here is refused.
 */
export function decideUnmerge(keys: readonly string[], survivor: ItemFacts): ItemsUnmerged[] {
  const unmerging = new Set<string>();
  for (const key of keys) {
    if (survivor.merges[key] !== undefined) unmerging.add(key);
    else if (survivor.unmerges[key] === undefined) {
      throw new InvalidArgument(`${key} was never merged into ${survivor.itemKey}`);
    }
  }
  if (unmerging.size === 0) return [];
  const leaving = (c: Contribution) => c.source !== 'own' && unmerging.has(c.from ?? '');
  const contributions = contributionsIn(survivor.roster);
  const kept = contributions.filter((c) => !leaving(c));
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
    if (leaving(c) && !(c.personId in after) && !broughtBy.has(c.personId))
      broughtBy.set(c.personId, c.from!);
  }
  const unmerged: ItemsUnmerged['data']['unmerged'] = [...unmerging].map((itemKey) => ({
    itemKey,
    restoredPeople: [...broughtBy.values()].filter((key) => key === itemKey).length,
    returnedPlusOnes: [
      ...new Set(
        contributions
          .filter((c) => c.source === 'addressed' && c.from === itemKey)
          .map((c) => c.personId),
      ),
    ],
  }));
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

/**
 * On the merged item: it takes triage commands again, with the +1s given on its key while it was
 * merged (those already counted by it, and its submitter, left out).
 */
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

export function decideUnmark(
  survivorKey: string,
  plusOnes: readonly string[],
  item: ItemFacts,
): ItemUnmerged[] {
  const fresh = [...new Set(plusOnes)].filter(
    (personId) => personId !== item.submitterId && !countsPlusOne(item.roster, personId),
  );
  return [{ type: 'ItemUnmerged', data: { survivorKey, plusOnes: fresh } }];
}
