/**
 * A minimal in-memory ReadStore for the search tests (mingo for filters; $set/$unset only),
 * so they do not depend on the embedded adapter. It also counts writes so tests can prove a
 * replayed, unchanged text writes nothing.
 */
import { Query } from 'mingo';
import type {
  Collection,
  Doc,
  Filter,
  FindOptions,
  ReadStore,
  Update,
} from '../../../src/readstore/types.js';

export interface MemoryReadStore extends ReadStore {
  writes: number;
}

export function memoryReadStore(): MemoryReadStore {
  const data = new Map<string, Map<string, Doc>>();
  const store: MemoryReadStore = {
    adapter: 'embedded',
    writes: 0,
    collection<T extends Doc>(name: string): Collection<T> {
      const rows = data.get(name) ?? new Map<string, Doc>();
      data.set(name, rows);
      const matching = (filter: Filter) => {
        const query = new Query(filter, {});
        return [...rows.values()].filter((doc) => query.test(doc));
      };
      const apply = (doc: Doc, update: Update) => {
        const next = { ...doc } as Record<string, unknown>;
        for (const [op, fields] of Object.entries(update)) {
          for (const [key, value] of Object.entries(fields as Record<string, unknown>)) {
            if (op === '$set') next[key] = value;
            else if (op === '$unset') delete next[key];
            else throw new Error(`memoryReadStore does not support ${op}`);
          }
        }
        return next as Doc;
      };
      const copy = (doc: Doc) => structuredClone(doc) as T;
      const collection: Collection<T> = {
        name,
        async findOne(filter) {
          const [doc] = matching(filter);
          return doc ? copy(doc) : null;
        },
        async find(filter, options: FindOptions = {}) {
          const found = matching(filter).slice(options.skip ?? 0);
          return found.slice(0, options.limit ?? found.length).map(copy);
        },
        async countDocuments(filter = {}) {
          return matching(filter).length;
        },
        async aggregate() {
          throw new Error('memoryReadStore does not aggregate');
        },
        async insertOne(doc) {
          store.writes++;
          rows.set(doc._id, structuredClone(doc));
        },
        async replaceOne(filter, doc, options) {
          const [found] = matching(filter);
          if (!found && !options?.upsert)
            return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
          store.writes++;
          rows.set(found?._id ?? doc._id, structuredClone(doc));
          return {
            matchedCount: found ? 1 : 0,
            modifiedCount: found ? 1 : 0,
            upsertedCount: found ? 0 : 1,
          };
        },
        async updateOne(filter, update, options) {
          const [found] = matching(filter);
          if (!found && !options?.upsert)
            return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
          store.writes++;
          const base = found ?? ({ _id: String(filter._id) } as Doc);
          rows.set(base._id, apply(base, update));
          return {
            matchedCount: found ? 1 : 0,
            modifiedCount: found ? 1 : 0,
            upsertedCount: found ? 0 : 1,
          };
        },
        async updateMany(filter, update) {
          const found = matching(filter);
          for (const doc of found) rows.set(doc._id, apply(doc, update));
          store.writes += found.length;
          return { matchedCount: found.length, modifiedCount: found.length, upsertedCount: 0 };
        },
        async deleteOne(filter) {
          const [found] = matching(filter);
          if (found) rows.delete(found._id);
          return { deletedCount: found ? 1 : 0 };
        },
        async deleteMany(filter) {
          const found = matching(filter);
          for (const doc of found) rows.delete(doc._id);
          return { deletedCount: found.length };
        },
        async createIndex(spec) {
          return spec.name ?? Object.keys(spec.keys).join('_');
        },
      };
      return collection;
    },
    async checkpoints() {
      return new Map();
    },
    async flush() {},
    claim() {},
    async dropCollection(name) {
      data.delete(name);
    },
    async deleteCheckpoint() {},
    async close() {},
  };
  return store;
}
