import { type ChangelogEvent, changelogEntryId } from '../../commands/changelog/index.js';
import { type ItemEvent, parseItemStreamId } from '../../commands/item/index.js';
import type { Collection, Doc, ReadStore } from '../../src/readstore/types.js';
import { guardedUpdate } from '../shared/guard.js';
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
  publishedAt: number;
  updatedAt: number;
}

/**
 * The entry as published stays the record; what changed since about the items it announces is
 * kept beside it, so a reader is shown nothing that is no longer true (queries.ts):
 */
export interface ChangelogEntryDoc extends Doc, StoredChangelogEntry {
  _ws: string;
  /** false while the announced item is not shipped (it left `shipped` after publication) */
  _shipped?: boolean;
  /** merged items of `itemIds` given back by an unmerge since (a new merge takes one back) */
  _unmerged?: string[];
}

/** The item events that change what an entry may claim. */
const ITEM_EVENTS = ['ItemStatusChanged', 'ItemsMerged', 'ItemsUnmerged'] as const;
type EntryItemEvent = Extract<ItemEvent, { type: (typeof ITEM_EVENTS)[number] }>;

export const CHANGELOG = 'changelog';
export const changelogOf = (s: ReadStore): Collection<ChangelogEntryDoc> => s.collection(CHANGELOG);
export const changelogDocId = (workspaceId: string, entryId: string): string =>
  `${workspaceId}.${entryId}`;

export function changelogProjector(): Projector {
  return {
    name: 'changelog',
    // 2: follows the announced items (`_shipped`, `_unmerged`)
    version: 2,
    collections: [CHANGELOG],
    filter: {
      streamPrefixes: ['changelog-', 'item-'],
      eventTypes: ['ChangelogEntryPublished', 'ChangelogEntryRevised', ...ITEM_EVENTS],
    },
    async setup(store) {
      await changelogOf(store).createIndex({
        keys: { _ws: 1, productId: 1, publishedAt: -1 },
        name: 'changelog_list',
      });
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
            { $set: { ...event.data, updatedAt: at } },
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
 * An announced item's change after publication, on the entry announcing it (if any): it left
 * `shipped` or came back to it; a merged item it also announces was given back, or merged again.
 */
async function itemChanged(event: Recorded<EntryItemEvent>, store: ReadStore): Promise<void> {
  const address = parseItemStreamId(event.streamId);
  if (!address) return;
  const id = changelogDocId(address.workspaceId, changelogEntryId(address.itemKey));
  const entries = changelogOf(store);
  const doc = await entries.findOne({ _id: id });
  if (!doc) return;
  const unmerged = new Set(doc._unmerged ?? []);
  switch (event.type) {
    case 'ItemStatusChanged':
      await guardedUpdate(entries, id, event.position, {
        $set: { _shipped: event.data.to === 'shipped' },
      });
      return;
    case 'ItemsMerged':
      for (const { itemKey } of event.data.merged) unmerged.delete(itemKey);
      break;
    case 'ItemsUnmerged':
      for (const { itemKey } of event.data.unmerged)
        if (doc.itemIds.includes(itemKey)) unmerged.add(itemKey);
      break;
    default: {
      const _exhaustive: never = event;
      return;
    }
  }
  await guardedUpdate(entries, id, event.position, { $set: { _unmerged: [...unmerged] } });
}
