/**
 * The MongoDB read store (selected by MONGODB_URL): the port maps almost one to one onto the
 * official driver. Writes are durable when acknowledged (majority write concern), so `flush`
 * only upserts the checkpoints after them; a crash in between replays a few events, which the
 * projectors' position guards make harmless.
 */
import type { Db, Document, Collection as MongoCollection } from 'mongodb';
import type {
  Collection,
  Doc,
  Filter,
  FindOptions,
  IndexSpec,
  ReadStore,
  Update,
  WriteResult,
} from '../types.js';
import { ReadStoreUnavailableError } from '../types.js';
import { type MongoConnection, mongoConnection } from './client.js';
import {
  CHECKPOINTS_COLLECTION,
  advanceCheckpoint,
  type CheckpointDoc,
  decodeCheckpoint,
  isNamespaceNotFound,
  mapDriverError,
} from './mapping.js';

export interface MongoReadStoreOptions {
  url: string;
  database: string;
  /** the driver's client was replaced because its server monitor wedged (client.ts) */
  onClientReplaced?: (reason: string) => void;
}

/** The port, and the one thing only this adapter has: starting over on a new driver client. */
export interface MongoReadStore extends ReadStore {
  /** what the watchdog does when the client's monitor wedged (client.ts); tests call it */
  replaceClient(reason: string): void;
}

export async function openMongoReadStore(options: MongoReadStoreOptions): Promise<MongoReadStore> {
  const connection = mongoConnection({
    url: options.url,
    database: options.database,
    onReplaced: options.onClientReplaced,
  });
  try {
    await connection.db().command({ ping: 1 });
    return new MongoBackedReadStore(connection);
  } catch (error) {
    await connection.close().catch(() => {});
    const reason = error instanceof Error ? error.message : String(error);
    throw new ReadStoreUnavailableError(
      `cannot reach MongoDB read store at ${redact(options.url)}: ${reason}`,
      {
        cause: error,
      },
    );
  }
}

/** Never print credentials from a connection string. */
export function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

class MongoBackedReadStore implements MongoReadStore {
  readonly adapter = 'mongodb' as const;

  constructor(private readonly connection: MongoConnection) {}

  replaceClient(reason: string): void {
    this.connection.replace(reason);
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    return new MongoBackedCollection<T>(this.connection, name);
  }

  async checkpoints(): Promise<Map<string, bigint>> {
    const docs = await reachable(() => this.checkpointCollection().find({}).toArray());
    return new Map(docs.map((doc) => decodeCheckpoint(doc)));
  }

  async flush(checkpoints: ReadonlyMap<string, bigint> = new Map()): Promise<void> {
    if (checkpoints.size === 0) return;
    await reachable(() =>
      this.checkpointCollection().bulkWrite(
        [...checkpoints].map(([projector, position]) => advanceCheckpoint(projector, position)),
        { ordered: false },
      ),
    );
  }

  claim(): void {}

  async dropCollection(name: string): Promise<void> {
    try {
      await this.connection.db().collection(name).drop();
    } catch (error) {
      if (!isNamespaceNotFound(error)) throw mapDriverError(name, error);
    }
  }

  async deleteCheckpoint(projector: string): Promise<void> {
    await reachable(() => this.checkpointCollection().deleteOne({ _id: projector }));
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  private checkpointCollection(): MongoCollection<CheckpointDoc> {
    return this.connection.db().collection<CheckpointDoc>(CHECKPOINTS_COLLECTION);
  }
}

class MongoBackedCollection<T extends Doc> implements Collection<T> {
  private db: Db | undefined;
  private driverCollection: MongoCollection<Document> | undefined;

  constructor(
    private readonly connection: MongoConnection,
    readonly name: string,
  ) {}

  /** the driver's collection on the current client (a replaced client replaces it too) */
  private get inner(): MongoCollection<Document> {
    const db = this.connection.db();
    if (db !== this.db || !this.driverCollection) {
      this.db = db;
      this.driverCollection = db.collection<Document>(this.name);
    }
    return this.driverCollection;
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    return (await this.guard(() => this.inner.findOne(filter, options))) as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    // Same tie order as the embedded store: `_id` breaks ties of the requested sort.
    const sort =
      options.sort && Object.keys(options.sort).length > 0
        ? { ...options.sort, _id: options.sort._id ?? 1 }
        : undefined;
    return (await this.guard(() =>
      this.inner.find(filter, { ...options, sort }).toArray(),
    )) as unknown as T[];
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    return this.guard(() => this.inner.countDocuments(filter));
  }

  async aggregate<R = Record<string, unknown>>(pipeline: Record<string, unknown>[]): Promise<R[]> {
    return (await this.guard(() => this.inner.aggregate(pipeline).toArray())) as R[];
  }

  async insertOne(doc: T): Promise<void> {
    await this.guard(() => this.inner.insertOne({ ...doc } as Document));
  }

  async replaceOne(
    filter: Filter,
    doc: T,
    options: { upsert?: boolean } = {},
  ): Promise<WriteResult> {
    return counts(await this.guard(() => this.inner.replaceOne(filter, doc, options)));
  }

  async updateOne(
    filter: Filter,
    update: Update,
    options: { upsert?: boolean } = {},
  ): Promise<WriteResult> {
    return counts(await this.guard(() => this.inner.updateOne(filter, update, options)));
  }

  async updateMany(filter: Filter, update: Update): Promise<WriteResult> {
    return counts(await this.guard(() => this.inner.updateMany(filter, update)));
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    const { deletedCount } = await this.guard(() => this.inner.deleteOne(filter));
    return { deletedCount };
  }

  async deleteMany(filter: Filter): Promise<{ deletedCount: number }> {
    const { deletedCount } = await this.guard(() => this.inner.deleteMany(filter));
    return { deletedCount };
  }

  async createIndex(spec: IndexSpec): Promise<string> {
    const options = { unique: spec.unique ?? false, ...(spec.name ? { name: spec.name } : {}) };
    return this.guard(() => this.inner.createIndex(spec.keys, options));
  }

  /** every driver call: a duplicate key or an unreachable server becomes the port's error */
  private async guard<R>(operation: () => Promise<R>): Promise<R> {
    try {
      return await operation();
    } catch (error) {
      throw mapDriverError(this.name, error);
    }
  }
}

/** a driver call on the store itself: an unreachable server becomes ReadStoreUnavailableError */
async function reachable<R>(operation: () => Promise<R>): Promise<R> {
  try {
    return await operation();
  } catch (error) {
    throw mapDriverError(CHECKPOINTS_COLLECTION, error);
  }
}

function counts(result: {
  matchedCount: number;
  modifiedCount: number;
  upsertedCount: number;
}): WriteResult {
  return {
    matchedCount: result.matchedCount,
    modifiedCount: result.modifiedCount,
    upsertedCount: result.upsertedCount,
  };
}
