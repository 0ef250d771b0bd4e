/**
 * The embedded read store: collections in memory (evaluated with native fast paths and mingo),
 * written through to the SQLite file. Writes are visible at once and become durable at the next
 * `flush(checkpoints)`, which commits every changed document, drop and checkpoint in ONE
 * transaction — so after a crash the documents on disk always match the stored checkpoints.
 * `close()` does not flush: what was not flushed is replayed from the checkpoint.
 */
import type { Collection, Doc, ReadStore } from '../types.js';
import { ReadStoreUnavailableError } from '../types.js';
import { EmbeddedCollection } from './collection.js';
import { type FlushBatch, ReadStoreFile } from './persistence.js';
import { CollectionState } from './state.js';

export interface EmbeddedReadStoreOptions {
  /** SQLite file; may be the embedded event store's file */
  path: string;
  /**
   * collections dropped as the store opens, without reading them (`rebuild` replaces them; one
   * whose documents cannot be read must not stop it); their rows go with the next flush
   */
  dropped?: readonly string[];
}

export async function openEmbeddedReadStore(options: EmbeddedReadStoreOptions): Promise<ReadStore> {
  const file = ReadStoreFile.open(options.path);
  try {
    const dropped = options.dropped ?? [];
    const loaded = file.load(dropped);
    const states = new Map<string, CollectionState>();
    const stateOf = (name: string): CollectionState => {
      let state = states.get(name);
      if (!state) {
        state = new CollectionState(name);
        states.set(name, state);
      }
      return state;
    };
    for (const [name, docs] of loaded.docs) {
      const state = stateOf(name);
      for (const doc of docs) state.load(doc);
    }
    for (const { collection, name, spec } of loaded.indexes)
      stateOf(collection).loadIndex(name, spec);
    for (const name of dropped) stateOf(name).drop();
    return new EmbeddedReadStore(file, stateOf, states, loaded.checkpoints);
  } catch (error) {
    file.close();
    throw error;
  }
}

class EmbeddedReadStore implements ReadStore {
  readonly adapter = 'embedded' as const;
  private readonly handles = new Map<string, EmbeddedCollection>();
  private readonly deletedCheckpoints = new Set<string>();
  private closed = false;

  constructor(
    private readonly file: ReadStoreFile,
    private readonly stateOf: (name: string) => CollectionState,
    private readonly states: Map<string, CollectionState>,
    private readonly stored: Map<string, bigint>,
  ) {}

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    this.assertOpen();
    let handle = this.handles.get(name);
    if (!handle) {
      handle = new EmbeddedCollection(this.stateOf(name));
      this.handles.set(name, handle);
    }
    return handle as unknown as Collection<T>;
  }

  async checkpoints(): Promise<Map<string, bigint>> {
    this.assertOpen();
    return new Map(this.stored);
  }

  async flush(checkpoints: ReadonlyMap<string, bigint> = new Map()): Promise<void> {
    this.assertOpen();
    const batch: FlushBatch = {
      droppedCollections: [],
      upserts: [],
      deletes: [],
      indexes: [],
      deletedCheckpoints: [...this.deletedCheckpoints],
      checkpoints: [...checkpoints],
    };
    for (const state of this.states.values()) {
      const name = state.name;
      if (state.dropped) batch.droppedCollections.push(name);
      for (const id of state.dirty) {
        const doc = state.docs.get(id);
        if (doc) batch.upserts.push({ collection: name, id, json: JSON.stringify(doc) });
        else batch.deletes.push({ collection: name, id });
      }
      if (state.indexesDirty) {
        const declared = [...state.indexes.values()].map((index) => ({
          name: index.name,
          spec: index.spec,
        }));
        batch.indexes.push({ collection: name, declared });
      }
    }
    // If the transaction fails, nothing is cleared and the next flush writes it all again.
    this.file.write(batch);
    for (const state of this.states.values()) {
      if (state.dirty.size > 0) state.dirty = new Set();
      state.dropped = false;
      state.indexesDirty = false;
    }
    this.deletedCheckpoints.clear();
    for (const [projector, position] of checkpoints) {
      // as the file's statement does (persistence.ts): only forward
      if (position > (this.stored.get(projector) ?? -1n)) this.stored.set(projector, position);
    }
  }

  async dropCollection(name: string): Promise<void> {
    this.assertOpen();
    this.stateOf(name).drop();
  }

  async deleteCheckpoint(projector: string): Promise<void> {
    this.assertOpen();
    // In memory now, on disk with the next flush: together with the rebuild's first writes.
    this.stored.delete(projector);
    this.deletedCheckpoints.add(projector);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.file.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new ReadStoreUnavailableError('read store is closed');
  }
}
