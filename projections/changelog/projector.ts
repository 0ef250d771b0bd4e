import { type ChangelogEvent, changelogEntryId } from '../../commands/changelog/index.js';
import type { Collection, Doc, ReadStore } from '../../src/readstore/types.js';
import { guardedUpdate } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import { asRecorded } from '../shared/recorded.js';

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

export interface ChangelogEntryDoc extends Doc, StoredChangelogEntry {
  _ws: string;
}

export const CHANGELOG = 'changelog';
export const changelogOf = (s: ReadStore): Collection<ChangelogEntryDoc> => s.collection(CHANGELOG);
export const changelogDocId = (workspaceId: string, entryId: string): string =>
  `${workspaceId}.${entryId}`;

export function changelogProjector(): Projector {
  return {
    name: 'changelog',
    collections: [CHANGELOG],
    filter: { streamPrefixes: ['changelog-'] },
    async setup(store) {
      await changelogOf(store).createIndex({
        keys: { _ws: 1, productId: 1, publishedAt: -1 },
        name: 'changelog_list',
      });
    },
    async apply(raw, store) {
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
