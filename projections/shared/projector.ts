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
  /** its name in /readyz and `rebuild --projector`; with `version`, its checkpoint id */
  readonly name: string;
  /**
   * Bump it when the documents the projector makes of events already in the log change (events
   * it now covers, a field it now records). Absent: 1. A process that finds the read model built
   * by another version drops it and replays the log into it, as `rebuild` does, so existing data
   * picks the change up on the next start (see checkpointId).
   */
  readonly version?: number;
  /** the collections this projector owns; a rebuild drops them and replays */
  readonly collections: readonly string[];
  /** events it cares about; others are skipped cheaply (its checkpoint still advances) */
  readonly filter?: EventFilter;
  /** create indexes; called at start and after a rebuild drops the collections */
  setup?(store: ReadStore): Promise<void>;
  apply(event: RecordedEvent, store: ReadStore): Promise<void>;
}

/**
 * The id a projector's checkpoint is stored under: its name, plus `@<version>` past version 1
 * (so version-1 checkpoints keep the ids they always had). A checkpoint stored under another id
 * of the same name is the mark of a read model built by another version.
 */
export function checkpointId(projector: Pick<Projector, 'name' | 'version'>): string {
  const version = projector.version ?? 1;
  return version === 1 ? projector.name : `${projector.name}@${version}`;
}

/** The projector name a checkpoint id belongs to. */
export function projectorNameOf(checkpoint: string): string {
  const at = checkpoint.lastIndexOf('@');
  return at < 0 ? checkpoint : checkpoint.slice(0, at);
}
