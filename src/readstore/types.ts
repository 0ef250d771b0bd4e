/**
 * The read-store port: a MongoDB-shaped subset so every query is written once, as a MongoDB
 * filter, and runs on the embedded store (mingo over in-memory collections, persisted to SQLite)
 * and on MongoDB. Every adapter passes test/readstore/contract.ts.
 */

export type Doc = { _id: string } & Record<string, unknown>;
export type Filter = Record<string, unknown>;
export type Update = Record<string, unknown>; // $set, $unset, $inc, $push, $pull, $addToSet, $max, $min
export type Sort = Record<string, 1 | -1>;
export type Projection = Record<string, 0 | 1>;

export interface FindOptions {
  sort?: Sort;
  limit?: number;
  skip?: number;
  projection?: Projection;
}

export interface WriteResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedCount: number;
}

export interface IndexSpec {
  /** equality fields first, then sort fields, as in MongoDB compound indexes */
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  name?: string;
}

export interface Collection<T extends Doc = Doc> {
  readonly name: string;
  findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  countDocuments(filter?: Filter): Promise<number>;
  aggregate<R = Record<string, unknown>>(pipeline: Record<string, unknown>[]): Promise<R[]>;
  /** throws DuplicateKeyError on a duplicate `_id` or unique-index value */
  insertOne(doc: T): Promise<void>;
  replaceOne(filter: Filter, doc: T, options?: { upsert?: boolean }): Promise<WriteResult>;
  updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<WriteResult>;
  updateMany(filter: Filter, update: Update): Promise<WriteResult>;
  deleteOne(filter: Filter): Promise<{ deletedCount: number }>;
  deleteMany(filter: Filter): Promise<{ deletedCount: number }>;
  createIndex(spec: IndexSpec): Promise<string>;
}

export interface ReadStore {
  readonly adapter: 'embedded' | 'mongodb';
  collection<T extends Doc = Doc>(name: string): Collection<T>;
  /** every projector checkpoint stored, by projector name */
  checkpoints(): Promise<Map<string, bigint>>;
  /**
   * Make every write so far durable together with the given projector checkpoints, atomically
   * (embedded: one SQLite transaction; MongoDB: writes are already durable, checkpoints are
   * upserted after them, and the projectors' revision guards make a replay harmless).
   *
   * A checkpoint only moves forward: one given behind the stored one leaves it as it is. A
   * projector paused past its lease (GC, SIGSTOP, a laptop asleep) wakes with older checkpoints
   * than the one that took over has stored; written over them, the next holder would replay those
   * events and an API process's read-your-writes wait would see the checkpoint go back. The
   * position is the fencing token (projector-lease.ts says why no lease generation).
   */
  flush(checkpoints?: ReadonlyMap<string, bigint>): Promise<void>;
  /**
   * `collections` are `projector`'s (its checkpoint id), which has applied the log up to
   * `position()` in this process. Embedded: a flush writes them only together with that
   * checkpoint, and only while it is at or past the stored one and they were not dropped since
   * this process loaded them — another process sharing the file (SHARED_DATA_DIR) may have
   * stored newer documents there, a `rebuild` may have dropped them. MongoDB: nothing to do,
   * every write goes to the shared database at once.
   */
  claim(
    projector: string,
    collections: readonly string[],
    position: () => bigint | undefined,
  ): void;
  /** drop a collection's documents and indexes (used by projection rebuilds) */
  dropCollection(name: string): Promise<void>;
  /** forget a projector's checkpoint (used by projection rebuilds) */
  deleteCheckpoint(projector: string): Promise<void>;
  close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
  override readonly name = 'DuplicateKeyError';
  constructor(
    readonly collection: string,
    readonly key: string,
  ) {
    super(`duplicate key in ${collection}: ${key}`);
  }
}

/**
 * By name, not instanceof: an adapter loaded with a dynamic import() and a caller loaded through
 * the other module system (tests under tsx) see two copies of the class.
 */
export function isDuplicateKey(error: unknown): error is DuplicateKeyError {
  return error instanceof Error && error.name === 'DuplicateKeyError';
}

export class ReadStoreUnavailableError extends Error {
  override readonly name = 'ReadStoreUnavailableError';
}
