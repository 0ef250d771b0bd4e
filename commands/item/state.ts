import type { ItemEvent, ItemStatus, ParticipantRole } from './events.js';
import { type Contribution, plusOnesOf, plusOneVia, rolesOf, withoutPlusOne } from './people.js';

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
  /** people counted in plusOneCount, each once; never the submitter (from `contributions`) */
  plusOnes: string[];
  /** every person on the item with the role they first took (from `contributions`) */
  people: Record<string, ParticipantRole>;
  /** how each person reached the item, in order (people.ts) */
  contributions: Contribution[];
  replyIds: string[];
  /** merged item key -> how many people were new to this item when it was merged in */
  merges: Record<string, number>;
  /** unmerged item key -> what the last unmerge of that key gave back */
  unmerges: Record<string, { restoredPeople: number; returnedPlusOnes: string[] }>;
  /** how many times the status has changed; a notification is about the current one */
  statusChanges: number;
  /** personId -> the `statusChanges` count when they were last told */
  notified: Record<string, number>;
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
      plusOnes: [],
      people: { [author.personId]: 'submitted' },
      contributions: [{ personId: author.personId, role: 'submitted', source: 'own', from: null }],
      replyIds: [],
      merges: {},
      unmerges: {},
      statusChanges: 0,
      notified: {},
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
      const replyIds = [...state.replyIds, replyId];
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
      return derived(state, withoutPlusOne(state.contributions, personId, ...via));
    }
    case 'ItemMergedInto':
      return { ...state, status: 'merged', survivorKey: event.data.survivorKey };
    case 'ItemsMerged': {
      const merges = { ...state.merges };
      const added: Contribution[] = [];
      const known = new Set(Object.keys(state.people));
      for (const { itemKey, addedPeople } of event.data.merged) {
        let newcomers = 0;
        for (const { personId, role } of addedPeople) {
          if (!known.has(personId)) {
            known.add(personId);
            newcomers++;
          }
          added.push({ personId, role, source: 'merged', from: itemKey });
        }
        merges[itemKey] = newcomers;
      }
      return { ...contribute(state, added), merges };
    }
    case 'ItemsUnmerged': {
      const keys = new Set(event.data.unmerged.map((u) => u.itemKey));
      const contributions = state.contributions.filter(
        (c) => c.source === 'own' || !keys.has(c.from ?? ''),
      );
      const merges = { ...state.merges };
      const unmerges = { ...state.unmerges };
      for (const { itemKey, restoredPeople, returnedPlusOnes } of event.data.unmerged) {
        delete merges[itemKey];
        unmerges[itemKey] = { restoredPeople, returnedPlusOnes };
      }
      return { ...derived(state, contributions), merges, unmerges };
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
      return contribute<ItemState & ItemFacts>(
        { ...facts, status: 'open' },
        event.data.plusOnes.map((personId) => ({
          personId,
          role: 'plus-one' as const,
          source: 'own' as const,
          from: null,
        })),
      );
    }
    case 'PeopleNotified': {
      const notified = { ...state.notified };
      for (const r of event.data.recipients)
        if (r.delivered) notified[r.personId] = state.statusChanges;
      return { ...state, notified, announced: state.statusChanges };
    }
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

/** The state with more contributions; people and +1s follow incrementally. */
function contribute<S extends ItemFacts>(state: S, added: readonly Contribution[]): S {
  if (added.length === 0) return state;
  const people = { ...state.people };
  const plusOnes = [...state.plusOnes];
  for (const c of added) {
    people[c.personId] ??= c.role;
    if (c.role === 'plus-one' && c.personId !== state.submitterId && !plusOnes.includes(c.personId))
      plusOnes.push(c.personId);
  }
  return { ...state, people, plusOnes, contributions: [...state.contributions, ...added] };
}

/** The state with its contributions replaced; people and +1s derived again from them. */
function derived<S extends ItemFacts>(state: S, contributions: Contribution[]): S {
  return {
    ...state,
    contributions,
    people: rolesOf(contributions),
    plusOnes: plusOnesOf(contributions, state.submitterId),
  };
}
