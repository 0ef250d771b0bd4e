/**
 * A read store held only in memory: the embedded store's collections (same filters, updates and
 * answers) without a file. Used to run projectors over a slice of the log — an item as it stood
 * at some revision — and ask the read models' own queries about it. Documents are frozen once
 * stored, so a snapshot shares them and costs one map copy per collection.
 */
import type { Collection, Doc, ReadStore } from '../types.js';
import { EmbeddedCollection } from './collection.js';
import { CollectionState } from './state.js';

/** Every collection's documents at one moment (shared, frozen). */
export type MemorySnapshot = ReadonlyMap<string, ReadonlyMap<string, Doc>>;

export interface MemoryReadStore extends ReadStore {
  snapshot(): MemorySnapshot;
}

export function createMemoryReadStore(from?: MemorySnapshot): MemoryReadStore {
  const states = new Map<string, CollectionState>();
  const handles = new Map<string, EmbeddedCollection>();
  const stateOf = (name: string) => {
    let state = states.get(name);
    if (!state) {
      state = new CollectionState(name);
      states.set(name, state);
    }
    return state;
  };
  for (const [name, docs] of from ?? []) {
    const state = stateOf(name);
    for (const doc of docs.values()) state.docs.set(doc._id, doc);
  }
  const checkpoints = new Map<string, bigint>();
  return {
    adapter: 'embedded',
    collection<T extends Doc = Doc>(name: string): Collection<T> {
      let handle = handles.get(name);
      if (!handle) {
        handle = new EmbeddedCollection(stateOf(name));
        handles.set(name, handle);
      }
      return handle as unknown as Collection<T>;
    },
    async checkpoints() {
      return new Map(checkpoints);
    },
    async flush(given = new Map()) {
      for (const [name, position] of given) {
        if (position > (checkpoints.get(name) ?? -1n)) checkpoints.set(name, position);
      }
    },
    claim() {}, // one process's memory: nothing to guard against
    async dropCollection(name) {
      stateOf(name).drop();
    },
    async deleteCheckpoint(name) {
      checkpoints.delete(name);
    },
    async close() {},
    snapshot() {
      const copy = new Map<string, ReadonlyMap<string, Doc>>();
      for (const [name, state] of states) copy.set(name, new Map(state.docs));
      return copy;
    },
  };
}
