import {
  type ChangelogEvent,
  changelogEntryId,
  type Requester,
} from '../../commands/changelog/index.js';
import { type ItemEvent, parseItemStreamId } from '../../commands/item/index.js';
import type { Collection, Doc, ReadStore } from '../../src/readstore/types.js';
import { guardedUpdate, guardedUpdateMany } from '../shared/guard.js';
import { CHANGELOG_ITEMS, claimOf, livingInside, recordItem } from './items.js';
import type { Projector } from '../shared/projector.js';
import { asRecorded, type Recorded } from '../shared/recorded.js';

/** A published changelog entry (public: the product's changelog page shows it). */
export interface StoredChangelogEntry {
  id: string;
  productId: string;
  itemId: string;
  itemIds: string[];
  title: string;
  body: string;
  requestedByNames: string[];
  requestedByCount: number;
  /** who is counted and named, not shown (commands/changelog/events.ts) */
  requestedBy?: Requester[];
  publishedAt: number;
  updatedAt: number;
}

/**
 * The entry as published stays the record; what changed since about the items it announces is
 * kept beside it, so a reader is shown nothing that is no longer true (queries.ts):
 */
export interface ChangelogEntryDoc extends Doc, StoredChangelogEntry {
  _ws: string;
  /**
   * whether the item whose status the entry claims is shipped now: the announced item's, or
   * while it is merged, its final survivor's (items.ts); false hides the entry (queries.ts)
   */
  _shipped?: boolean;
  /** the item `_shipped` follows: `itemId`, or the end of its merges while it is merged */
  _follows?: string;
  /** `itemId`, then each item it was merged into, to `_follows` (a merge of any moves the entry) */
  _through?: string[];
  /**
   * merged items of `itemIds` given back by an unmerge since, with those living inside them (a new
   * merge takes them back)
   */
  _unmerged?: string[];
  /** people of `requestedBy` who left the item with them (a new merge brings them back) */
  _departed?: string[];
}

/** The item events that change what an entry may claim. */
const ITEM_EVENTS = [
  'ItemStatusChanged',
  'ItemMergedInto',
  'ItemUnmerged',
  'ItemsMerged',
  'ItemsUnmerged',
] as const;
type EntryItemEvent = Extract<ItemEvent, { type: (typeof ITEM_EVENTS)[number] }>;

export const CHANGELOG = 'changelog';
export const changelogOf = (s: ReadStore): Collection<ChangelogEntryDoc> => s.collection(CHANGELOG);
export const changelogDocId = (workspaceId: string, entryId: string): string =>
  `${workspaceId}.${entryId}`;

export function changelogProjector(): Projector {
  return {
    name: 'changelog',
    // 2: follows the announced items (`_shipped`, `_unmerged`); 3: and what they are now when
    // the entry is published, a merged item's survivor (items.ts), the people who left (`_departed`);
    // 4: a merged item's final survivor, the end of its merges (`_through`)
    // 5: an unmerge gives back the items living inside the unmerged one too (`livingInside`)
    version: 5,
    collections: [CHANGELOG, CHANGELOG_ITEMS],
    filter: {
      streamPrefixes: ['changelog-', 'item-'],
      eventTypes: ['ChangelogEntryPublished', 'ChangelogEntryRevised', ...ITEM_EVENTS],
    },
    async setup(store) {
      await changelogOf(store).createIndex({
        keys: { _ws: 1, productId: 1, publishedAt: -1 },
        name: 'changelog_list',
      });
      await changelogOf(store).createIndex({ keys: { _ws: 1, _follows: 1 }, name: 'follows' });
      await changelogOf(store).createIndex({ keys: { _ws: 1, _through: 1 }, name: 'through' });
    },
    async apply(raw, store) {
      if (raw.streamId.startsWith('item-')) {
        await itemChanged(asRecorded<EntryItemEvent>(raw), store);
        return;
      }
      const event = asRecorded<ChangelogEvent>(raw);
      const at = event.metadata.occurredAt;
      switch (event.type) {
        case 'ChangelogEntryPublished': {
          const { entryId, workspaceId, productKey, itemKey, ...fields } = event.data;
          const doc = {
            id: entryId,
            productId: productKey,
            itemId: itemKey,
            ...fields,
            publishedAt: at,
            updatedAt: at,
            _ws: workspaceId,
            // what the item is now, in log order: a status change or a merge may have landed
            // between the draft's read of the item and this append
            ...(await claimOf(store, workspaceId, itemKey)),
          };
          await guardedUpdate(
            changelogOf(store),
            changelogDocId(workspaceId, entryId),
            event.position,
            { $set: doc },
            { upsert: true },
          );
          return;
        }
        case 'ChangelogEntryRevised': {
          // stream `changelog-<ws>.<ITEMKEY>`; the entry id is derived from the item key
          const [workspaceId, itemKey] = event.streamId.slice('changelog-'.length).split('.') as [
            string,
            string,
          ];
          await guardedUpdate(
            changelogOf(store),
            changelogDocId(workspaceId, changelogEntryId(itemKey)),
            event.position,
            {
              $set: {
                ...event.data,
                updatedAt: at,
                // drafted anew: the people it names are those on the item now
                ...(event.data.requestedBy ? { _departed: [] } : {}),
              },
            },
          );
          return;
        }
        default: {
          const _exhaustive: never = event;
        }
      }
    },
  };
}

/**
 * An announced item's change after publication, on the entry announcing it (if any): its status
 * (or its final survivor's) moved; it, or an item it lives on in, was merged or given back
 * (items.ts); a merged item the entry also announces was given back, or merged again.
 */
async function itemChanged(event: Recorded<EntryItemEvent>, store: ReadStore): Promise<void> {
  const address = parseItemStreamId(event.streamId);
  if (!address) return;
  const { workspaceId, itemKey } = address;
  const entries = changelogOf(store);
  const id = changelogDocId(workspaceId, changelogEntryId(itemKey));
  switch (event.type) {
    case 'ItemStatusChanged': {
      // only `shipped` counts, and no record reads as not shipped: a change between two other
      // statuses (most of them) writes nothing
      if (event.data.from !== 'shipped' && event.data.to !== 'shipped') return;
      const shipped = event.data.to === 'shipped';
      await recordItem(store, workspaceId, itemKey, event.position, { shipped });
      await guardedUpdateMany(entries, { _ws: workspaceId, _follows: itemKey }, event.position, {
        $set: { _shipped: shipped },
      });
      return;
    }
    case 'ItemMergedInto':
    case 'ItemUnmerged': {
      const survivor = event.type === 'ItemMergedInto' ? event.data.survivorKey : null;
      await recordItem(store, workspaceId, itemKey, event.position, { survivor });
      // the entries whose way to their final survivor passes here: this item's own, and those
      // of the items merged into it, directly or along a chain
      const moved = await entries.find(
        { _ws: workspaceId, _through: itemKey },
        { projection: { _id: 1, itemId: 1 } },
      );
      for (const entry of moved) {
        await guardedUpdate(entries, entry._id, event.position, {
          $set: await claimOf(store, workspaceId, entry.itemId),
        });
      }
      return;
    }
  }
  const doc = await entries.findOne({ _id: id });
  if (!doc) return;
  const unmerged = new Set(doc._unmerged ?? []);
  const departed = new Set(doc._departed ?? []);
  switch (event.type) {
    case 'ItemsMerged': {
      const keys = event.data.merged.map((m) => m.itemKey);
      // and the items living inside them, which come back with them
      for (const key of [...keys, ...(await livingInside(store, workspaceId, keys, [...unmerged]))])
        unmerged.delete(key);
      for (const { addedPeople } of event.data.merged)
        for (const { personId } of addedPeople) departed.delete(personId);
      break;
    }
    case 'ItemsUnmerged': {
      const keys = event.data.unmerged.map((u) => u.itemKey);
      // and the items living inside them (A merged into B, B into C: unmerging B gives A back too)
      for (const key of [...keys, ...(await livingInside(store, workspaceId, keys, doc.itemIds))])
        if (doc.itemIds.includes(key)) unmerged.add(key);
      const requesters = new Set(doc.requestedBy?.map((r) => r.personId));
      for (const personId of event.data.removedPeople)
        if (requesters.has(personId)) departed.add(personId);
      break;
    }
    default: {
      const _exhaustive: never = event;
      return;
    }
  }
  await guardedUpdate(entries, id, event.position, {
    $set: { _unmerged: [...unmerged], _departed: [...departed] },
  });
}
