import { addressedContext, type ItemEvent, mergedContext } from '../../commands/item/index.js';
import type { Update } from '../../src/readstore/types.js';
import { guardedUpdate } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import { asRecorded, type Recorded } from '../shared/recorded.js';
import { type ItemDoc, itemDocId, itemsOf, rankOf, type StoredParticipant } from './document.js';
import { waitersCarriedIn } from './waiting.js';

/**
 * Items read model. Each event changes one item document with one guarded update; changes that
 * depend on the document (participants, +1 set) read it first — the guard still makes a replay
 * a no-op because the document already carries the event's position.
 */
export function itemsProjector(): Projector {
  return {
    name: 'items',
    // 2: a notification moves updatedAt; 3: `_announced`; 4: `_carriedWaiting`
    version: 4,
    collections: ['items'],
    filter: { streamPrefixes: ['item-'] },
    async setup(store) {
      const items = itemsOf(store);
      await items.createIndex({
        keys: { _ws: 1, productId: 1, _mergedInto: 1, rank: 1 },
        name: 'items_list',
      });
      await items.createIndex({
        keys: { _ws: 1, productId: 1, _mergedInto: 1, status: 1, rank: 1 },
        name: 'items_status',
      });
      await items.createIndex({ keys: { id: 1 }, name: 'items_key' });
      await items.createIndex({ keys: { _people: 1 }, name: 'items_people' });
    },
    async apply(raw, store) {
      const event = asRecorded<ItemEvent>(raw);
      const items = itemsOf(store);
      if (event.type === 'ItemCaptured') {
        await guardedUpdate(
          items,
          itemDocId(event.data.workspaceId, event.data.itemKey),
          event.position,
          {
            $set: captured(event),
          },
          { upsert: true },
        );
        return;
      }
      const id = event.streamId.slice('item-'.length);
      const doc = await items.findOne({ _id: id });
      if (!doc) return;
      const update = changes(event, doc);
      if (update && event.type === 'ItemsMerged') {
        const keys = event.data.merged.map((m) => m.itemKey);
        const carried = await waitersCarriedIn(items, doc, keys);
        update.$set = { ...(update.$set as Record<string, unknown>), _carriedWaiting: carried };
      }
      if (update) await guardedUpdate(items, id, event.position, update);
      if (event.type === 'ItemsMerged') {
        // the merged items learn that their survivor recorded them (merge complete)
        for (const { itemKey } of event.data.merged) {
          await guardedUpdate(items, itemDocId(doc._ws, itemKey), event.position, {
            $set: { _mergeRecorded: true },
          });
        }
      }
      if (event.type === 'ItemsUnmerged') {
        // the unmerged items are to take themselves back (unmerge pending until they do)
        for (const { itemKey } of event.data.unmerged) {
          await guardedUpdate(items, itemDocId(doc._ws, itemKey), event.position, {
            $set: { _unmergePending: true },
          });
        }
      }
    },
  };
}

/** The document an ItemCaptured creates (also folded in memory by as-of.ts). */
export function captured(
  event: Extract<Recorded<ItemEvent>, { type: 'ItemCaptured' }>,
): Omit<ItemDoc, '_id'> {
  const { workspaceId, productKey, itemKey, number, title, body, author, via } = event.data;
  const createdAt = event.data.createdAt ?? event.metadata.occurredAt;
  const { personId, ...publicAuthor } = author;
  return {
    id: itemKey,
    productId: productKey,
    status: 'new',
    title,
    body,
    rank: rankOf(createdAt, number),
    tagIds: [],
    plusOneCount: 0,
    replyCount: 0,
    author: publicAuthor,
    ...(via ? { via } : {}),
    notifiedAt: null,
    statusChangedAt: null,
    createdAt,
    createdBy: personId,
    updatedAt: Math.max(createdAt, event.metadata.occurredAt),
    _ws: workspaceId,
    _n: number,
    _mergedInto: null,
    _mergeRecorded: false,
    _mergedKeys: [],
    _submitterId: personId,
    _plusOnes: [],
    _people: [personId],
    _participants: [{ personId, role: 'submitted', context: null }],
    _lastSpeaker: { kind: 'person', id: personId, at: createdAt },
    _carriedWaiting: [],
    _notifiedStatus: null,
    _announced: false,
  };
}

/** The `$set` an event makes to an item document (also folded in memory by as-of.ts). */
export function changes(
  event: Exclude<Recorded<ItemEvent>, { type: 'ItemCaptured' }>,
  doc: ItemDoc,
): Update | null {
  const at = event.metadata.occurredAt;
  switch (event.type) {
    case 'ItemEdited':
      return { $set: { ...event.data, updatedAt: at } };
    case 'ItemStatusChanged':
      return {
        $set: { status: event.data.to, statusChangedAt: at, updatedAt: at, _announced: false },
      };
    case 'ItemTagged':
      return { $set: { tagIds: event.data.tagIds, updatedAt: at } };
    case 'ItemReplied': {
      const { authorKind: kind, authorId: id } = event.data;
      const set: Record<string, unknown> = {
        replyCount: doc.replyCount + 1,
        updatedAt: at,
        _lastSpeaker: { kind, id, at },
      };
      // a maker's or agent's answer on the survivor answers the merged threads' people too
      if (kind !== 'person') set._carriedWaiting = [];
      if (kind === 'person') Object.assign(set, joined(doc, id, 'replied', null));
      return { $set: set };
    }
    case 'PlusOneAdded': {
      const { personId, addressedTo } = event.data;
      if (doc._plusOnes.includes(personId) || personId === doc._submitterId) return null;
      const context = addressedTo === doc.id ? null : addressedContext(addressedTo);
      return {
        $set: {
          plusOneCount: doc.plusOneCount + 1,
          _plusOnes: [...doc._plusOnes, personId],
          updatedAt: at,
          ...joined(doc, personId, 'plus-one', context),
        },
      };
    }
    case 'PlusOneWithdrawn': {
      const { personId, plusOneAt, participant } = event.data;
      // the decider says where the person stands afterwards (other +1s, a reply, a merge)
      const plusOnes = doc._plusOnes.filter((id) => id !== personId);
      if (plusOneAt !== null) plusOnes.splice(plusOneAt, 0, personId);
      const participants = doc._participants.filter((p) => p.personId !== personId);
      if (participant) {
        const { at: index, role, context } = participant;
        participants.splice(index, 0, { personId, role, context });
      }
      return {
        $set: {
          plusOneCount: plusOnes.length,
          _plusOnes: plusOnes,
          _participants: participants,
          _people: participants.map((p) => p.personId),
          updatedAt: at,
        },
      };
    }
    case 'ItemMergedInto':
      return {
        $set: { _mergedInto: event.data.survivorKey, _mergeRecorded: false, updatedAt: at },
      };
    case 'ItemsMerged': {
      let next: Pick<ItemDoc, '_people' | '_participants'> = {
        _people: doc._people,
        _participants: doc._participants,
      };
      const plusOnes = [...doc._plusOnes];
      for (const { itemKey, addedPeople } of event.data.merged) {
        for (const { personId, role } of addedPeople) {
          next = { ...next, ...joined(next, personId, role, mergedContext(itemKey)) };
          if (role === 'plus-one' && !plusOnes.includes(personId)) plusOnes.push(personId);
        }
      }
      const mergedKeys = [...doc._mergedKeys, ...event.data.merged.map((m) => m.itemKey)];
      // people the shipped item's notification never reached: it owes them one (merge.ts)
      const untold = event.data.merged.some((m) => (m.untold ?? []).length > 0);
      return {
        $set: {
          ...next,
          ...(untold ? { _announced: false } : {}),
          _plusOnes: plusOnes,
          plusOneCount: plusOnes.length,
          _mergedKeys: mergedKeys,
          updatedAt: at,
        },
      };
    }
    case 'ItemsUnmerged': {
      const { participants, plusOnes, unmerged } = event.data;
      const keys = new Set(unmerged.map((u) => u.itemKey));
      return {
        $set: {
          _participants: participants,
          _people: participants.map((p) => p.personId),
          _plusOnes: plusOnes,
          plusOneCount: plusOnes.length,
          _mergedKeys: doc._mergedKeys.filter((key) => !keys.has(key)),
          _carriedWaiting: (doc._carriedWaiting ?? []).filter((w) => !keys.has(w.from)),
          updatedAt: at,
        },
      };
    }
    case 'ItemUnmerged': {
      let next: Pick<ItemDoc, '_people' | '_participants'> = doc;
      const plusOnes = [...doc._plusOnes];
      // its own +1s, then those given on the items living inside it (as PlusOneAdded has them)
      const given = [
        ...event.data.plusOnes.map((personId) => ({ personId, context: null })),
        ...(event.data.insidePlusOnes ?? []).flatMap(({ itemKey, plusOnes: on }) =>
          on.map((personId) => ({ personId, context: addressedContext(itemKey) })),
        ),
      ];
      for (const { personId, context } of given) {
        if (plusOnes.includes(personId) || personId === doc._submitterId) continue;
        plusOnes.push(personId);
        next = joined(next, personId, 'plus-one', context);
      }
      return {
        $set: {
          _people: next._people,
          _participants: next._participants,
          _plusOnes: plusOnes,
          plusOneCount: plusOnes.length,
          _mergedInto: null,
          _mergeRecorded: false,
          _unmergePending: false,
          updatedAt: at,
        },
      };
    }
    case 'PeopleNotified':
      // notifiedAt is a field of the item, so telling its people is a change of the item
      return {
        $set: {
          notifiedAt: at,
          _notifiedStatus: event.data.status,
          _announced: true,
          updatedAt: at,
        },
      };
    default: {
      const _exhaustive: never = event;
      return null;
    }
  }
}

/** The person joins the item's people once, keeping the role they first took. */
function joined(
  doc: Pick<ItemDoc, '_people' | '_participants'>,
  personId: string,
  role: StoredParticipant['role'],
  context: string | null,
): Pick<ItemDoc, '_people' | '_participants'> {
  if (doc._people.includes(personId))
    return { _people: doc._people, _participants: doc._participants };
  return {
    _people: [...doc._people, personId],
    _participants: [...doc._participants, { personId, role, context }],
  };
}
