/**
 * Items "after the change", folded from their streams (projections/items/as-of.ts) with a small
 * cache of the latest fold per stream: the worker and list_events walk the log forwards, so the
 * next event of a stream usually applies to the cached document without reading anything.
 */
import type { ItemDoc } from '../../../projections/items/document.js';
import { itemDocAfter } from '../../../projections/items/as-of.js';
import type { EventStore, RecordedEvent } from '../../eventstore/types.js';

interface Entry {
  revision: number;
  before: ItemDoc | null;
  after: ItemDoc | null;
}

export interface ItemFold {
  before: ItemDoc | null;
  after: ItemDoc | null;
}

export function createItemFolds(eventStore: EventStore, capacity = 10_000) {
  const cache = new Map<string, Entry>();

  function remember(streamId: string, entry: Entry): void {
    const known = cache.get(streamId);
    if (known && known.revision > entry.revision) return;
    cache.delete(streamId);
    cache.set(streamId, entry);
    if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
  }

  return {
    /** the item right before and right after `event` (an event of an item stream) */
    async around(event: RecordedEvent): Promise<ItemFold> {
      const known = cache.get(event.streamId);
      if (known?.revision === event.revision) return known;
      if (known?.revision === event.revision - 1) {
        const entry = {
          revision: event.revision,
          before: known.after,
          after: itemDocAfter(known.after, event),
        };
        remember(event.streamId, entry);
        return entry;
      }
      const events = await eventStore.readStream(event.streamId, { maxCount: event.revision + 1 });
      let before: ItemDoc | null = null;
      let after: ItemDoc | null = null;
      for (const e of events) {
        before = after;
        after = itemDocAfter(after, e);
      }
      const entry = { revision: event.revision, before, after };
      remember(event.streamId, entry);
      return entry;
    },

    /** the item as it stood just before the log reached `position` (for changelog messages) */
    async before(streamId: string, position: bigint): Promise<ItemDoc | null> {
      const events = await eventStore.readStream(streamId);
      let doc: ItemDoc | null = null;
      for (const e of events) {
        if (e.position >= position) break;
        doc = itemDocAfter(doc, e);
      }
      return doc;
    },
  };
}

export type ItemFolds = ReturnType<typeof createItemFolds>;
