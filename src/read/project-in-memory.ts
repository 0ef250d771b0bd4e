/**
 * What a projector makes of some events alone, in an in-memory read store: a past state of one
 * stream (a person's name before a position, a note at a revision) read with the projector's own
 * rules, so how an event changes a document stays written once. It lives with the projection
 * runtime, not in projections/: it picks a read-store adapter, and read models know only the port.
 */
import { matchesFilter, type RecordedEvent } from '../eventstore/types.js';
import { createMemoryReadStore, type MemoryReadStore } from '../readstore/embedded/memory.js';
import type { Projector } from '../../projections/shared/projector.js';

export async function projectInMemory(
  projector: Projector,
  events: Iterable<RecordedEvent>,
): Promise<MemoryReadStore> {
  const store = createMemoryReadStore();
  for (const event of events) {
    if (matchesFilter(event, projector.filter)) await projector.apply(event, store);
  }
  return store;
}
