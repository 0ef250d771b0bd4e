import { FailedPrecondition, InvalidArgument } from '../shared/errors.js';
import type { ItemsMerged, ParticipantRole } from './events.js';
import { countsPlusOne, peopleIn, roleOf } from './roster.js';
import type { ItemFacts, ItemState } from './state.js';

/** What a merged item hands to its survivor; read from the merged item's state after marking. */
export interface MergeSnapshot {
  itemKey: string;
  survivorKey: string;
  people: Readonly<Record<string, ParticipantRole>>;
  /** its people told about its current status (notify_people needs it shipped) */
  told: readonly string[];
}

export function mergeSnapshot(state: ItemState): MergeSnapshot {
  if (state.status !== 'merged') {
    throw new FailedPrecondition('item has not been merged yet');
  }
  return {
    itemKey: state.itemKey,
    survivorKey: state.survivorKey,
    people: peopleIn(state.roster),
    told: toldAboutCurrentStatus(state),
  };
}

/** Who notify_people told about the item's current status (see notify.ts). */
function toldAboutCurrentStatus(item: Pick<ItemFacts, 'notified' | 'statusChanges'>): string[] {
  const told: string[] = [];
  for (const [personId, at] of item.notified) if (at === item.statusChanges) told.push(personId);
  return told;
}

/**
 * The survivor "keeps the +1s and the people" (spec, merge_items rule 1): the merged item's
 * submitter and +1s become +1s of the survivor, its repliers become repliers. A person already
 * on the survivor is not added again (counted once); a replier of the survivor who +1'd the
 * duplicate becomes a +1. Merges already recorded are skipped, so a retry appends nothing.
 *
 * Who was told (the spec is silent; each person is told once): into a shipped survivor, the
 * people a shipped duplicate's notification reached count as told (`told`), and people new to
 * the survivor whom nobody told are recorded as such (`untold`), which returns the survivor to
 * shippedUnnotified. Into a survivor that is not shipped, nothing carries: its shipping is news.
 */
export function decideRecordMerge(
  merged: readonly MergeSnapshot[],
  survivor: ItemFacts,
): ItemsMerged[] {
  // who this decision adds, over the survivor's roster (not a copy of it: O(added), not O(n))
  const joining = new Set<string>();
  const plusOnes = new Set<string>();
  const roster = survivor.roster;
  const entries: ItemsMerged['data']['merged'] = [];
  for (const snapshot of merged) {
    if (snapshot.itemKey === survivor.itemKey) {
      throw new InvalidArgument('an item cannot be merged into itself');
    }
    if (snapshot.survivorKey !== survivor.itemKey) {
      throw new FailedPrecondition(`${snapshot.itemKey} was merged into ${snapshot.survivorKey}`);
    }
    if (survivor.merges[snapshot.itemKey] !== undefined) continue;
    if (entries.some((e) => e.itemKey === snapshot.itemKey)) continue;
    const addedPeople: ItemsMerged['data']['merged'][number]['addedPeople'] = [];
    for (const [personId, role] of Object.entries(snapshot.people)) {
      const takes: ParticipantRole = role === 'replied' ? 'replied' : 'plus-one';
      const isSubmitter = personId === survivor.submitterId;
      const newPlusOne =
        takes === 'plus-one' &&
        !isSubmitter &&
        !plusOnes.has(personId) &&
        !countsPlusOne(roster, personId);
      const known = joining.has(personId) || roleOf(roster, personId) !== undefined;
      if (!known || newPlusOne) {
        addedPeople.push({ personId, role: takes });
        joining.add(personId);
        if (newPlusOne) plusOnes.add(personId);
      }
    }
    entries.push({ itemKey: snapshot.itemKey, addedPeople });
  }
  if (survivor.itemStatus === 'shipped') noteWhoWasTold(entries, merged, survivor);
  return entries.length ? [{ type: 'ItemsMerged', data: { merged: entries } }] : [];
}

/** `told` and `untold` of each entry into a shipped survivor; each left out when empty. */
function noteWhoWasTold(
  entries: ItemsMerged['data']['merged'],
  merged: readonly MergeSnapshot[],
  survivor: ItemFacts,
): void {
  const toldOn = new Map(merged.map((s) => [s.itemKey, s.told]));
  // told on any of the merged items: one person on two duplicates is told once
  const toldAnywhere = new Set(entries.flatMap((e) => toldOn.get(e.itemKey) ?? []));
  const toldHere = (personId: string) => survivor.notified.get(personId) === survivor.statusChanges;
  const seen = new Set<string>();
  for (const entry of entries) {
    const told = (toldOn.get(entry.itemKey) ?? []).filter((p) => !toldHere(p) && !seen.has(p));
    for (const personId of told) seen.add(personId);
    const untold = entry.addedPeople
      .map((p) => p.personId)
      .filter((p) => roleOf(survivor.roster, p) === undefined && !toldAnywhere.has(p));
    if (told.length) entry.told = told;
    if (untold.length) entry.untold = untold;
  }
}

/** merge_items' `mergedPeople`: people new to the survivor from these merged items. */
export function mergedPeopleCount(survivor: ItemFacts, mergedKeys: readonly string[]): number {
  return [...new Set(mergedKeys)].reduce((sum, key) => sum + (survivor.merges[key] ?? 0), 0);
}
