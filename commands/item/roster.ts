/**
 * An item's contributions (people.ts) kept so that folding one costs O(log n), not O(n): an item
 * with thousands of +1s is folded again from its start after a restart or a cache eviction, on
 * the thread that serves every request, and copying the people and +1s per +1 made that fold
 * quadratic (16,000 +1s took 85 s). A roster is immutable like every state: persistent
 * collections (`immutable`) share all but the changed path with the roster they came from, so
 * a state already handed out (the cached snapshot, a batch's state before its next command)
 * never changes.
 *
 * What the fold and the per-person decisions need is answered from per-person trails in
 * O(log n): is the person on the item, with which role, do they count as a +1, did they +1
 * through this source, and where they stand among the people and the +1s (counted in
 * positions.ts over each person's first contribution and first +1). The ordered views — the
 * contributions, the people, the +1s — are derived from the log, O(n), only when a decision is
 * about all of them (a merge, an unmerge, notify_people), and remembered per roster.
 *
 * A withdrawn +1 leaves a hole in the log rather than shifting it (only an unmerge builds the
 * log anew), so the log grows with the +1s ever given, as the stream does.
 */
import { Map as ImmutableMap, List } from 'immutable';
import type { ParticipantRole } from './events.js';
import {
  type Contribution,
  type ContributionSource,
  contextOf,
  plusOnesOf,
  rolesOf,
  type Standing,
} from './people.js';
import {
  countBelow,
  noPositions,
  type Positions,
  withoutPosition,
  withPosition,
} from './positions.js';

/**
 * Where one person's contributions are in the log. Only the first one that stays for good
 * (submitting, an own reply) matters among those: nothing takes it away, so a later one never
 * becomes the person's first. The others — +1s, those a merge brought — can be withdrawn or
 * unmerged; a person has a few of them at most (an own +1, and per merged item what the merge
 * brought and a +1 given on it).
 */
interface Trail {
  /** the log index of their first contribution that stays; -1: none */
  readonly kept: number;
  /** the log indexes of their contributions that may leave, oldest first */
  readonly leaving: readonly number[];
}

export interface Roster {
  readonly submitterId: string;
  /** every contribution in the order it happened; one withdrawn leaves a hole */
  readonly log: List<Contribution | undefined>;
  /** personId -> their contributions in `log`; a person without any has no trail */
  readonly trails: ImmutableMap<string, Trail>;
  /** where each person's first contribution is in `log` (the order of the people) */
  readonly firsts: Positions;
  /** where each counted +1's first +1 is in `log` (the order of the +1s) */
  readonly firstPlusOnes: Positions;
}

export const newRoster = (submitterId: string): Roster => ({
  submitterId,
  log: List(),
  trails: ImmutableMap(),
  firsts: noPositions,
  firstPlusOnes: noPositions,
});

const stays = (c: Contribution): boolean => c.source === 'own' && c.role !== 'plus-one';

/** The roster with more contributions, in this order: O(log n) each. */
export function joined(roster: Roster, added: readonly Contribution[]): Roster {
  if (added.length === 0) return roster;
  const start = roster.log.size;
  const log = roster.log.concat(added);
  let order: Pick<Roster, 'firsts' | 'firstPlusOnes'> = roster;
  const trails = roster.trails.withMutations((people) => {
    added.forEach((c, i) => {
      const before = people.get(c.personId);
      const trail = before ?? { kept: -1, leaving: [] };
      let after = trail;
      if (!stays(c)) after = { ...trail, leaving: [...trail.leaving, start + i] };
      else if (trail.kept < 0) after = { ...trail, kept: start + i };
      if (after === trail) return;
      people.set(c.personId, after);
      order = placed({ ...roster, ...order, log }, c.personId, before, after);
    });
  });
  return { ...roster, ...order, log, trails };
}

/** The roster without the person's +1 through this source (a withdrawn +1). */
export function withdrawn(
  roster: Roster,
  personId: string,
  source: ContributionSource,
  from: string | null,
): Roster {
  const trail = roster.trails.get(personId);
  if (!trail) return roster;
  const theirs = (at: number) => isPlusOneVia(roster.log.get(at), source, from);
  const gone = trail.leaving.filter(theirs);
  if (gone.length === 0) return roster;
  const leaving = trail.leaving.filter((at) => !theirs(at));
  const after = trail.kept < 0 && leaving.length === 0 ? undefined : { ...trail, leaving };
  const log = roster.log.withMutations((l) => {
    for (const at of gone) l.set(at, undefined);
  });
  const trails = after ? roster.trails.set(personId, after) : roster.trails.delete(personId);
  return { ...roster, ...placed(roster, personId, trail, after), log, trails };
}

/** The people's and +1s' order after the person's trail went from `before` to `after`. */
function placed(
  roster: Roster,
  personId: string,
  before: Trail | undefined,
  after: Trail | undefined,
): Pick<Roster, 'firsts' | 'firstPlusOnes'> {
  const counted = personId !== roster.submitterId;
  return {
    firsts: moved(roster.firsts, firstOf(before), firstOf(after)),
    firstPlusOnes: counted
      ? moved(roster.firstPlusOnes, firstPlusOneOf(roster, before), firstPlusOneOf(roster, after))
      : roster.firstPlusOnes,
  };
}

function moved(set: Positions, from: number, to: number): Positions {
  if (from === to) return set;
  const without = from < 0 ? set : withoutPosition(set, from);
  return to < 0 ? without : withPosition(without, to);
}

/** The log index of the person's first contribution; -1: none. */
function firstOf(trail: Trail | undefined): number {
  if (!trail) return -1;
  const first = trail.leaving[0] ?? -1;
  return trail.kept < 0 || (first >= 0 && first < trail.kept) ? first : trail.kept;
}

/** The log index of the person's first +1 (all +1s may leave); -1: none. */
function firstPlusOneOf(roster: Roster, trail: Trail | undefined): number {
  return trail?.leaving.find((at) => roster.log.get(at)?.role === 'plus-one') ?? -1;
}

/**
 * The roster without what came through these merged items. O(n), built anew: an unmerge
 * follows a merge, both a maker's command, and deciding it reads every contribution anyway.
 */
export function unmerged(roster: Roster, itemKeys: ReadonlySet<string>): Roster {
  const kept = contributionsIn(roster).filter(
    (c) => c.source === 'own' || !itemKeys.has(c.from ?? ''),
  );
  return joined(newRoster(roster.submitterId), kept);
}

/** Whether the person +1'd through this source (a repeat adds nothing). */
export function hasPlusOneVia(
  roster: Roster,
  personId: string,
  source: ContributionSource,
  from: string | null,
): boolean {
  const trail = roster.trails.get(personId);
  return !!trail?.leaving.some((at) => isPlusOneVia(roster.log.get(at), source, from));
}

/** The role the person first took on the item; undefined when they are not on it. */
export function roleOf(roster: Roster, personId: string): ParticipantRole | undefined {
  return contributionAt(roster, firstOf(roster.trails.get(personId)))?.role;
}

/** Whether the person is counted in the item's +1s (never its submitter). */
export function countsPlusOne(roster: Roster, personId: string): boolean {
  if (personId === roster.submitterId) return false;
  return firstPlusOneOf(roster, roster.trails.get(personId)) >= 0;
}

/** Where the person stands among the item's +1s and its participants, as `standingOf` says. */
export function standingIn(roster: Roster, personId: string): Standing {
  const trail = roster.trails.get(personId);
  const first = contributionAt(roster, firstOf(trail));
  if (!first) return { plusOneAt: null, participant: null };
  const firstPlusOne = countsPlusOne(roster, personId) ? firstPlusOneOf(roster, trail) : -1;
  return {
    plusOneAt: firstPlusOne < 0 ? null : countBelow(roster.firstPlusOnes, firstPlusOne),
    participant: {
      at: countBelow(roster.firsts, firstOf(trail)),
      role: first.role,
      context: contextOf(first),
    },
  };
}

/** `List.get(-1)` is the last entry: -1 (none) must not reach it. */
function contributionAt(roster: Roster, at: number): Contribution | undefined {
  return at < 0 ? undefined : roster.log.get(at);
}

function isPlusOneVia(
  c: Contribution | undefined,
  source: ContributionSource,
  from: string | null,
): boolean {
  return c?.role === 'plus-one' && c.source === source && c.from === from;
}

// The ordered views: derived once per roster (rosters are immutable, so a view never goes stale).
const contributionsMemo = new WeakMap<Roster, readonly Contribution[]>();
const peopleMemo = new WeakMap<Roster, Readonly<Record<string, ParticipantRole>>>();
const plusOnesMemo = new WeakMap<Roster, readonly string[]>();

function remembered<T>(memo: WeakMap<Roster, T>, roster: Roster, derive: () => T): T {
  let view = memo.get(roster);
  if (view === undefined) {
    view = Object.freeze(derive());
    memo.set(roster, view);
  }
  return view;
}

/** How each person reached the item, in order (people.ts). */
export function contributionsIn(roster: Roster): readonly Contribution[] {
  return remembered(contributionsMemo, roster, () =>
    roster.log.filter((c): c is Contribution => c !== undefined).toArray(),
  );
}

/** Every person on the item with the role they first took, in the order they came. */
export function peopleIn(roster: Roster): Readonly<Record<string, ParticipantRole>> {
  return remembered(peopleMemo, roster, () => rolesOf(contributionsIn(roster)));
}

/** The people counted in the item's +1s, each once, in the order of their first +1. */
export function plusOnesIn(roster: Roster): readonly string[] {
  return remembered(plusOnesMemo, roster, () =>
    plusOnesOf(contributionsIn(roster), roster.submitterId),
  );
}
