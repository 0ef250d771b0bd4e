/**
 * An item document as it stood right after one event, folded in memory from the item's own
 * stream with the projector's own rules (captured / changes) — not read from the items read
 * model, which may already be further on. Outbound webhook messages describe the item "after the
 * change" this way even when their worker runs behind or a read model is being rebuilt.
 * (Every item field comes from the item's own stream, so nothing else is needed.)
 */
import type { ItemEvent } from '../../commands/item/index.js';
import type { RecordedEvent } from '../../src/eventstore/types.js';
import { asRecorded } from '../shared/recorded.js';
import { type ItemDoc, itemDocId } from './document.js';
import { captured, changes } from './projector.js';

export function itemDocAfter(doc: ItemDoc | null, raw: RecordedEvent): ItemDoc | null {
  const event = asRecorded<ItemEvent>(raw);
  if (event.type === 'ItemCaptured') {
    const { workspaceId, itemKey } = event.data;
    return { _id: itemDocId(workspaceId, itemKey), ...captured(event) } as ItemDoc;
  }
  if (!doc) return null;
  const update = changes(event, doc);
  if (!update) return doc;
  return { ...doc, ...(update.$set as Partial<ItemDoc>) };
}

export function foldItem(events: readonly RecordedEvent[]): ItemDoc | null {
  return events.reduce<ItemDoc | null>(itemDocAfter, null);
}
