/**
 * The embedded read store: collections in memory (evaluated with native fast paths and mingo),
 * written through to the SQLite file. Writes are visible at once and become durable at the next
 * `flush(checkpoints)`, which commits every changed document, drop and checkpoint in ONE
 * transaction — so after a crash the documents on disk always match the stored checkpoints.
 * `close()` does not flush: what was not flushed is replayed from the checkpoint.
 *
 * The collections a projector `claim`s, and its checkpoint, are written only while this process
 * is at or past the checkpoint the file holds for it and none of them was dropped since it loaded
 * them (flush-guards.ts): another process on the same file (SHARED_DATA_DIR) may have stored newer
 * copies, a `rebuild` may have dropped them. What no projector claims — sign-ins, rate limits,
 * sign-outs — is this process's own and written as it is, as before.
 */
import type { Collection, Doc, ReadStore } from '../types.js';
import { ReadStoreUnavailableError } from '../types.js';
import { EmbeddedCollection } from './collection.js';
import { type LeftOut, leftOutMessage, type ProjectionGuard } from './flush-guards.js';
import { type FlushBatch, type LoadedState, ReadStoreFile } from './persistence.js';
import { CollectionState } from './state.js';

export interface EmbeddedReadStoreOptions {
  /** SQLite file; may be the embedded event store's file */
  path: string;
  /**
   * collections dropped as the store opens, without reading them (`rebuild` replaces them; one
   * whose documents cannot be read must not stop it); their rows go with the next flush
   */
  dropped?: readonly string[];
  /** told, once a projector, that the file holds its read model further on than this process */
  logger?: { warn(message: string, fields?: Record<string, unknown>): void };
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
    return new EmbeddedReadStore(file, stateOf, states, loaded, options.logger);
  } catch (error) {
    file.close();
    throw error;
  }
}

class EmbeddedReadStore implements ReadStore {
  readonly adapter = 'embedded' as const;
  private readonly handles = new Map<string, EmbeddedCollection>();
  private readonly deletedCheckpoints = new Set<string>();
  /** collection → the projector (checkpoint id) that writes it */
  private readonly owners = new Map<string, string>();
  /** each claimed projector's checkpoint in this process, as it is now */
  private readonly positions = new Map<string, () => bigint | undefined>();
  /** projectors whose part a flush left out, told once each for each reason */
  private readonly told = new Set<string>();
  /** this process's checkpoints: loaded at open, then each one given to a flush */
  private readonly stored: Map<string, bigint>;
  /** the collections' generations this process loaded or made by dropping them */
  private readonly generations: Map<string, number>;
  private closed = false;

  constructor(
    private readonly file: ReadStoreFile,
    private readonly stateOf: (name: string) => CollectionState,
    private readonly states: Map<string, CollectionState>,
    loaded: Pick<LoadedState, 'checkpoints' | 'generations'>,
    private readonly logger: EmbeddedReadStoreOptions['logger'],
  ) {
    this.stored = loaded.checkpoints;
    this.generations = loaded.generations;
  }

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

  claim(projector: string, collections: readonly string[], position: () => bigint | undefined) {
    for (const collection of collections) this.owners.set(collection, projector);
    this.positions.set(projector, position);
  }

  async flush(checkpoints: ReadonlyMap<string, bigint> = new Map()): Promise<void> {
    this.assertOpen();
    const batch: FlushBatch = {
      droppedCollections: [],
      upserts: [],
      deletes: [],
      indexes: [],
      deletedCheckpoints: [...this.deletedCheckpoints],
      checkpoints: [],
      guards: [],
      generations: this.generations,
    };
    const owners = new Set([...checkpoints.keys()].filter((id) => this.positions.has(id)));
    for (const state of this.states.values()) {
      const name = state.name;
      const owner = this.owners.get(name);
      if (owner !== undefined && (state.dropped || state.dirty.size > 0 || state.indexesDirty))
        owners.add(owner);
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
    batch.guards = [...owners].map((owner) => this.guard(owner, checkpoints));
    // a projection's documents go with its checkpoint, also in a flush not given it (a sign-in's)
    const given = new Map(checkpoints);
    for (const { projector, position } of batch.guards)
      if (position !== undefined) given.set(projector, position);
    batch.checkpoints = [...given];
    // If the transaction fails, nothing is cleared and the next flush writes it all again. What
    // it left out is cleared too: behind, the file holds those documents as of a later
    // checkpoint, and this process writes them again only once it is at or past that one, by
    // then with all it changed since; rebuilt, this process no longer writes them.
    const written = this.file.write(batch);
    for (const [collection, generation] of written.generations)
      this.generations.set(collection, generation);
    this.tell(written.left);
    for (const state of this.states.values()) {
      if (state.dirty.size > 0) state.dirty = new Set();
      state.dropped = false;
      state.indexesDirty = false;
    }
    this.deletedCheckpoints.clear();
    for (const [projector, position] of given) {
      // as the file's statement does (persistence.ts): only forward
      if (position > (this.stored.get(projector) ?? -1n)) this.stored.set(projector, position);
    }
  }

  /**
   * A flush not given this projector's checkpoint (a sign-in's, after the search indexer's
   * vectors) takes the one it has now: the documents hold the events applied so far, so the
   * last one flushed would make them look older than they are to the guard.
   */
  private guard(projector: string, given: ReadonlyMap<string, bigint>): ProjectionGuard {
    const position = given.get(projector) ?? this.positions.get(projector)!();
    const collections = [...this.owners].filter(([, p]) => p === projector).map(([c]) => c);
    return { projector, position, collections };
  }

  /** once a projector and reason: its part was left out (README, SHARED_DATA_DIR) */
  private tell(left: readonly LeftOut[]): void {
    for (const one of left) {
      const key = `${one.reason} ${one.projector}`;
      if (this.told.has(key)) continue;
      this.told.add(key);
      const { message, fields } = leftOutMessage(one);
      this.logger?.warn(message, fields);
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
