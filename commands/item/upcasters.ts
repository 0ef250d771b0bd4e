/**
 * Old shapes of item events, read as the current ones (commands/shared/versions.ts).
 *
 * PlusOneAdded v1 → v2: v2 records `addressedTo`, the item the person +1'd. A +1 given on a
 * merged item lands on its survivor's stream; knowing it was addressed to the merged item is what
 * lets an unmerge give it back. Version 1 did not record it, so a v1 +1 reads as given on the
 * item whose stream holds it — what version 1 knew.
 */
import type { StoredEvent, Upcaster } from '../shared/versions.js';
import { parseItemStreamId } from './streams.js';

export const itemUpcasters: Upcaster[] = [
  {
    type: 'PlusOneAdded',
    from: 1,
    upcast(event: StoredEvent) {
      const data = event.data as { personId: string };
      const itemKey = parseItemStreamId(event.streamId)?.itemKey;
      if (!itemKey) throw new Error(`PlusOneAdded on ${event.streamId}, not an item stream`);
      return { ...data, addressedTo: itemKey };
    },
  },
];
