import { Map as ImmutableMap, OrderedSet } from 'immutable';
import type { InsidePlusOnes, ItemEvent, ItemsMerged, ItemStatus } from './events.js';
import { type Contribution, plusOneVia } from './people.js';
import { joined, newRoster, type Roster, roleOf, unmerged, withdrawn } from './roster.js';

/** What an item knows about itself once captured; shared by the open and merged states. */
export interface ItemFacts {
  workspaceId: string;
  productKey: string;
  itemKey: string;
  itemStatus: ItemStatus;
  title: string;
  body: string;
  tagIds: string[];
  submitterId: string;
  /**
   * how each person reached the item, in order (people.ts): `contributionsIn`, and from them
   * `peopleIn` (every person with the role they first took) and `plusOnesIn` (the people counted
   * in plusOneCount, each once, never the submitter) — roster.ts
   */
  roster: Roster;
  /** the item's replies; persistent, as a reply must not copy every earlier one */
  replyIds: OrderedSet<string>;
  /** merged item key -> how many people were new to this item when it was merged in */
  merges: Record<string, number>;
  /** unmerged item key -> what the last unmerge of that key gave back */
  unmerges: Record<
    string,
    { restoredPeople: number; returnedPlusOnes: string[]; insidePlusOnes?: InsidePlusOnes }
  >;
  /** how many times the status has changed; a notification is about the current one */
  statusChanges: number;
  /** personId -> the `statusChanges` count when they were last told */
  notified: ImmutableMap<string, number>;
  /** the `statusChanges` count of the last notify_people that recorded anything; null: never */
  announced: number | null;
}

/**
 * `open`: the item takes triage commands. `merged`: it lives on in `survivorKey` and refuses
 * further changes, so the people it handed over cannot drift from what the survivor recorded.
 */
export type ItemState =
  | { status: 'absent' }
  | ({ status: 'open' } & ItemFacts)
  | ({ status: 'merged'; survivorKey: string } & ItemFacts);

export const initialItemState = (): ItemState => ({ status: 'absent' });

export function evolveItem(state: ItemState, event: ItemEvent): ItemState {
  if (event.type === 'ItemCaptured') {
    const { workspaceId, productKey, itemKey, title, body, author } = event.data;
    return {
      status: 'open',
      workspaceId,
      productKey,
      itemKey,
      itemStatus: 'new',
      title,
      body,
      tagIds: [],
      submitterId: author.personId,
      roster: joined(newRoster(author.personId), [
        { personId: author.personId, role: 'submitted', source: 'own', from: null },
      ]),
      replyIds: OrderedSet(),
      merges: {},
      unmerges: {},
      statusChanges: 0,
      notified: ImmutableMap(),
      announced: null,
    };
  }
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'ItemEdited':
      return { ...state, ...event.data };
    case 'ItemStatusChanged':
      return { ...state, itemStatus: event.data.to, statusChanges: state.statusChanges + 1 };
    case 'ItemTagged':
      return { ...state, tagIds: event.data.tagIds };
    case 'ItemReplied': {
      const { replyId, authorKind, authorId } = event.data;
      const replyIds = state.replyIds.add(replyId);
      if (authorKind !== 'person') return { ...state, replyIds };
      return {
        ...contribute(state, [{ personId: authorId, role: 'replied', source: 'own', from: null }]),
        replyIds,
      };
    }
    case 'PlusOneAdded': {
      const { personId, addressedTo } = event.data;
      const own = addressedTo === state.itemKey;
      return contribute(state, [
        {
          personId,
          role: 'plus-one',
          source: own ? 'own' : 'addressed',
          from: own ? null : addressedTo,
        },
      ]);
    }
    case 'PlusOneWithdrawn': {
      // only the withdrawn +1 goes: the person's other contributions keep them on the item
      const { personId, addressedTo } = event.data;
      const via = plusOneVia(state.itemKey, addressedTo);
      return { ...state, roster: withdrawn(state.roster, personId, ...via) };
    }
    case 'ItemMergedInto':
      return { ...state, status: 'merged', survivorKey: event.data.survivorKey };
    case 'ItemsMerged': {
      const merges = { ...state.merges };
      const added: Contribution[] = [];
      const known = new Set<string>();
      for (const { itemKey, addedPeople } of event.data.merged) {
        let newcomers = 0;
        for (const { personId, role } of addedPeople) {
          if (!known.has(personId) && roleOf(state.roster, personId) === undefined) {
            known.add(personId);
            newcomers++;
          }
          added.push({ personId, role, source: 'merged', from: itemKey });
        }
        merges[itemKey] = newcomers;
      }
      return { ...contribute(state, added), merges, ...toldByMerge(state, event.data.merged) };
    }
    case 'ItemsUnmerged': {
      // the +1s given on items living inside an unmerged one leave with it (unmerge.ts)
      const keys = new Set(
        event.data.unmerged.flatMap((u) => [
          u.itemKey,
          ...(u.insidePlusOnes ?? []).map((given) => given.itemKey),
        ]),
      );
      const merges = { ...state.merges };
      const unmerges = { ...state.unmerges };
      for (const { itemKey, ...gaveBack } of event.data.unmerged) {
        delete merges[itemKey];
        unmerges[itemKey] = gaveBack;
      }
      return { ...state, roster: unmerged(state.roster, keys), merges, unmerges };
    }
    case 'ItemUnmerged': {
      const {
        status: _status,
        survivorKey: _survivor,
        ...facts
      } = state as ItemFacts & {
        status: string;
        survivorKey?: string;
      };
      const addressed = (event.data.insidePlusOnes ?? []).flatMap(({ itemKey, plusOnes }) =>
        plusOnes.map((personId) => plusOneOf(personId, 'addressed', itemKey)),
      );
      return contribute<ItemState & ItemFacts>({ ...facts, status: 'open' }, [
        ...event.data.plusOnes.map((personId) => plusOneOf(personId, 'own', null)),
        ...addressed,
      ]);
    }
    case 'PeopleNotified': {
      const notified = state.notified.withMutations((told) => {
        for (const r of event.data.recipients)
          if (r.delivered) told.set(r.personId, state.statusChanges);
      });
      return { ...state, notified, announced: state.statusChanges };
    }
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

/** Who a merge says was told it shipped, and whether it leaves someone untold (merge.ts). */
function toldByMerge(
  state: ItemFacts,
  merged: ItemsMerged['data']['merged'],
): Pick<ItemFacts, 'notified' | 'announced'> {
  const notified = state.notified.withMutations((told) => {
    for (const entry of merged)
      for (const personId of entry.told ?? []) told.set(personId, state.statusChanges);
  });
  const untold = merged.some((entry) => (entry.untold ?? []).length > 0);
  return { notified, announced: untold ? null : state.announced };
}

const plusOneOf = (
  personId: string,
  source: Contribution['source'],
  from: string | null,
): Contribution => ({ personId, role: 'plus-one', source, from });

/** The state with more contributions; people and +1s follow (roster.ts). */
function contribute<S extends ItemFacts>(state: S, added: readonly Contribution[]): S {
  if (added.length === 0) return state;
  return { ...state, roster: joined(state.roster, added) };
}
