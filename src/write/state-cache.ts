import type { RecordedEvent } from '../eventstore/types.js';

/** A folded aggregate state at a revision, with the idempotency keys seen on its stream. */
export interface Snapshot<State> {
  state: State;
  revision: number;
  keyed: Map<string, RecordedEvent[]>;
  /** global position of the last event folded in (null: none) */
  position: bigint | null;
  /** latest `occurredAt` (ms) of the events folded in; a later event is never stamped earlier */
  occurredAt?: number;
  /** another process has appended to the stream since this one cached it (command-handler.ts) */
  shared?: boolean;
}

/** Least-recently-used snapshots, bounded by entry count (a Map keeps insertion order). */
export class StateCache {
  private readonly entries = new Map<string, Snapshot<unknown>>();
  constructor(private readonly capacity: number) {}

  get<State>(streamId: string): Snapshot<State> | undefined {
    const entry = this.entries.get(streamId);
    if (entry) {
      this.entries.delete(streamId);
      this.entries.set(streamId, entry);
    }
    return entry as Snapshot<State> | undefined;
  }

  set<State>(streamId: string, snapshot: Snapshot<State>): void {
    this.entries.delete(streamId);
    this.entries.set(streamId, snapshot as Snapshot<unknown>);
    if (this.entries.size > this.capacity) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }

  delete(streamId: string): void {
    this.entries.delete(streamId);
  }
}
