/**
 * A projector turns events into read-model documents. The engine (src/read/projection-engine.ts)
 * feeds it every event after its checkpoint, in `$all` order, and stores the checkpoint with
 * its writes. A projector must be safe to run twice over the same events: guard every document
 * write with `guardedUpdate` (position guard) and combine all changes an event makes to one
 * document into one update.
 */
import type { EventFilter, RecordedEvent } from '../../src/eventstore/types.js';
import type { ReadStore } from '../../src/readstore/types.js';

export interface Projector {
  /** checkpoint id; also the name shown in /readyz */
  readonly name: string;
  /** the collections this projector owns; a rebuild drops them and replays */
  readonly collections: readonly string[];
  /** events it cares about; others are skipped cheaply (its checkpoint still advances) */
  readonly filter?: EventFilter;
  /** create indexes; called at start and after a rebuild drops the collections */
  setup?(store: ReadStore): Promise<void>;
  apply(event: RecordedEvent, store: ReadStore): Promise<void>;
}
