/**
 * What a projector makes of some events alone, in an in-memory read store: a past state of one
 * stream (a person's name before a position, a note at a revision) read with the projector's own
 * rules, so how an event changes a document stays written once.
 */
import { matchesFilter, type RecordedEvent } from '../../src/eventstore/types.js';
import {
  createMemoryReadStore,
  type MemoryReadStore,
} from '../../src/readstore/embedded/memory.js';
import type { Projector } from './projector.js';

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
