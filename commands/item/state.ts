import type { ItemEvent, ItemStatus, ParticipantRole } from './events.js';

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
  /** people counted in plusOneCount, each once; never the submitter */
  plusOnes: string[];
  /** every person on the item with the role they first took */
  people: Record<string, ParticipantRole>;
  replyIds: string[];
  /** merged item key -> how many people were new to this item when it was merged in */
  merges: Record<string, number>;
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
      replyIds: [],
      merges: {},
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
      const people =
        authorKind === 'person' && !state.people[authorId]
          ? { ...state.people, [authorId]: 'replied' as const }
          : state.people;
      return { ...state, people, replyIds: [...state.replyIds, replyId] };
    }
    case 'PlusOneAdded': {
      const { personId } = event.data;
      return {
        ...state,
        plusOnes: [...state.plusOnes, personId],
        people: { ...state.people, [personId]: state.people[personId] ?? 'plus-one' },
      };
    }
    case 'ItemMergedInto':
      return { ...state, status: 'merged', survivorKey: event.data.survivorKey };
    case 'ItemsMerged': {
      const people = { ...state.people };
      const plusOnes = [...state.plusOnes];
      const merges = { ...state.merges };
      for (const { itemKey, addedPeople } of event.data.merged) {
        let newcomers = 0;
        for (const { personId, role } of addedPeople) {
          if (!people[personId]) {
            people[personId] = role;
            newcomers++;
          }
          if (role === 'plus-one' && !plusOnes.includes(personId)) plusOnes.push(personId);
        }
        merges[itemKey] = newcomers;
      }
      return { ...state, people, plusOnes, merges };
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
