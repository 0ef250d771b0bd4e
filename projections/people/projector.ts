import type { ItemEvent, ParticipantRole } from '../../commands/item/index.js';
import type { PersonEvent, PersonTier } from '../../commands/person/index.js';
import type { Collection, Doc, ReadStore } from '../../src/readstore/types.js';
import { guardedUpdate, positionKey } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import { asRecorded, type Recorded } from '../shared/recorded.js';

export interface PersonDoc extends Doc {
  id: string;
  tier: PersonTier;
  displayName: string | null;
  avatar: string | null;
  email: string | null;
  /** the last time the person submitted, +1'd or replied */
  lastContactAt: number | null;
  createdAt: number;
  _ws: string;
  /** list order key: newest first, unique */
  _order: string;
}

/** A person's role on one item; title and status are read from the item at query time. */
export interface PersonItemDoc extends Doc {
  personId: string;
  itemId: string;
  productId: string;
  /** the role they first took on the item */
  role: ParticipantRole;
  since: number;
  _ws: string;
}

export const PEOPLE = 'people';
export const PERSON_ITEMS = 'person_items';
export const peopleOf = (s: ReadStore): Collection<PersonDoc> => s.collection(PEOPLE);
export const personItemsOf = (s: ReadStore): Collection<PersonItemDoc> =>
  s.collection(PERSON_ITEMS);

const MAX = 2 ** 53 - 1;
export const personOrder = (createdAt: number, id: string): string =>
  `${(MAX - createdAt).toString(36).padStart(11, '0')}.${id}`;

export function peopleProjector(): Projector {
  return {
    name: 'people',
    collections: [PEOPLE, PERSON_ITEMS],
    filter: {
      eventTypes: [
        'PersonCreated',
        'PersonUpdated',
        'ItemCaptured',
        'PlusOneAdded',
        'PlusOneWithdrawn',
        'ItemReplied',
        'ItemsMerged',
        'ItemsUnmerged',
        'ItemUnmerged',
      ],
    },
    async setup(store) {
      await peopleOf(store).createIndex({ keys: { _ws: 1, _order: 1 }, name: 'people_list' });
      await peopleOf(store).createIndex({ keys: { _ws: 1, email: 1 }, name: 'people_email' });
      await personItemsOf(store).createIndex({
        keys: { personId: 1 },
        name: 'person_items_person',
      });
    },
    async apply(raw, store) {
      if (raw.streamId.startsWith('person-'))
        return applyPerson(asRecorded<PersonEvent>(raw), store);
      return applyItem(asRecorded<ItemEvent>(raw), store);
    },
  };
}

async function applyPerson(event: Recorded<PersonEvent>, store: ReadStore): Promise<void> {
  switch (event.type) {
    case 'PersonCreated': {
      const { personId, workspaceId, ...fields } = event.data;
      const createdAt = event.metadata.occurredAt;
      const set = {
        id: personId,
        ...fields,
        lastContactAt: null,
        createdAt,
        _ws: workspaceId,
        _order: personOrder(createdAt, personId),
      };
      await guardedUpdate(
        peopleOf(store),
        personId,
        event.position,
        { $set: set },
        { upsert: true },
      );
      return;
    }
    case 'PersonUpdated': {
      const personId = event.streamId.slice('person-'.length);
      await guardedUpdate(peopleOf(store), personId, event.position, { $set: event.data });
      return;
    }
    default: {
      const _exhaustive: never = event;
    }
  }
}

async function applyItem(event: Recorded<ItemEvent>, store: ReadStore): Promise<void> {
  const [workspaceId, itemKey] = event.streamId.slice('item-'.length).split('.') as [
    string,
    string,
  ];
  const at =
    event.data && 'createdAt' in event.data && event.data.createdAt
      ? event.data.createdAt
      : event.metadata.occurredAt;
  const involve = async (personId: string, role: ParticipantRole, contact: boolean) => {
    const id = `${personId}|${workspaceId}.${itemKey}`;
    const existing = await personItemsOf(store).findOne({ _id: id });
    if (!existing) {
      const doc = {
        personId,
        itemId: itemKey,
        productId: itemKey.slice(0, itemKey.indexOf('-')),
        role,
        since: at,
        _ws: workspaceId,
      };
      await guardedUpdate(
        personItemsOf(store),
        id,
        event.position,
        { $set: doc },
        { upsert: true },
      );
    }
    if (contact) {
      await guardedUpdate(peopleOf(store), personId, event.position, {
        $max: { lastContactAt: at },
      });
    }
  };
  switch (event.type) {
    case 'ItemCaptured':
      return involve(event.data.author.personId, 'submitted', true);
    case 'PlusOneAdded':
      return involve(event.data.personId, 'plus-one', true);
    case 'PlusOneWithdrawn': {
      // a withdrawal is not a contact; the person leaves unless another role keeps them
      const id = `${event.data.personId}|${workspaceId}.${itemKey}`;
      const { participant } = event.data;
      if (!participant) {
        // guarded like an update: a replay must not remove a row a later +1 brought back
        const older = { $lt: positionKey(event.position) };
        await personItemsOf(store).deleteOne({
          _id: id,
          $or: [{ _pos: older }, { _pos: { $exists: false } }],
        });
      } else {
        await guardedUpdate(personItemsOf(store), id, event.position, {
          $set: { role: participant.role },
        });
      }
      return;
    }
    case 'ItemReplied':
      if (event.data.authorKind === 'person') await involve(event.data.authorId, 'replied', true);
      return;
    case 'ItemsMerged':
      for (const m of event.data.merged) {
        for (const p of m.addedPeople) await involve(p.personId, p.role, false);
      }
      return;
    case 'ItemsUnmerged': {
      // people who were here only through the unmerged items leave the survivor's list
      for (const personId of event.data.removedPeople) {
        await personItemsOf(store).deleteOne({ _id: `${personId}|${workspaceId}.${itemKey}` });
      }
      for (const { personId, role } of event.data.changedRoles) {
        const id = `${personId}|${workspaceId}.${itemKey}`;
        await guardedUpdate(personItemsOf(store), id, event.position, { $set: { role } });
      }
      return;
    }
    case 'ItemUnmerged':
      // +1s given on this item's key while it was merged, and on the items living inside it;
      // the contact was counted back then
      for (const personId of event.data.plusOnes) await involve(personId, 'plus-one', false);
      for (const { plusOnes } of event.data.insidePlusOnes ?? [])
        for (const personId of plusOnes) await involve(personId, 'plus-one', false);
      return;
    default:
      return;
  }
}
