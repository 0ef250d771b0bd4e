/**
 * The Collection port over one CollectionState. Reads copy documents out, writes copy them in,
 * so no caller ever holds a reference into stored state. Each method runs synchronously inside
 * its promise, so a write is atomic with respect to every other read and write.
 */
import { randomUUID } from 'node:crypto';
import { Aggregator, ProcessingMode } from 'mingo';
import type {
  Collection,
  Doc,
  Filter,
  FindOptions,
  IndexSpec,
  Update,
  WriteResult,
} from '../types.js';
import { cloneJson, copyStored } from './clone.js';
import { upsertSeed } from './constraints.js';
import { InvalidDocumentError, InvalidUpdateError } from './errors.js';
import { interpretFilter } from './interpret.js';
import { definedFilter, refuseMalformedFilter } from './filter-shape.js';
import { compileFilter, flatEqualityKeys } from './matcher.js';
import { isPlainObject } from './objects.js';
import { present, window } from './ordering.js';
import { refusePositionalInsert, resolvePositional } from './positional.js';
import type { CollectionState } from './state.js';
import { validateUpdate } from './update-shape.js';
import { applyUpdate } from './updater.js';

/** Stages that never mutate their input documents, so mingo may read stored objects directly. */
const READ_ONLY_STAGES = new Set([
  '$match',
  '$group',
  '$count',
  '$sort',
  '$limit',
  '$skip',
  '$sortByCount',
]);

export class EmbeddedCollection<T extends Doc = Doc> implements Collection<T> {
  constructor(private readonly state: CollectionState) {}

  get name(): string {
    return this.state.name;
  }

  async findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<T | null> {
    // The request path's lookups ({_id}, {hash}, ...) take no options: first match, as stored.
    const [doc] =
      options === undefined
        ? this.matching(filter, 1)
        : this.select(filter, { ...options, limit: 1 });
    return doc ? (present(doc, options?.projection) as T) : null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.select(filter, options).map((doc) => present(doc, options.projection) as T);
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    if (Object.keys(filter).length === 0) return this.state.docs.size;
    return this.matching(filter).length;
  }

  async aggregate<R = Record<string, unknown>>(pipeline: Record<string, unknown>[]): Promise<R[]> {
    // MongoDB parses the whole pipeline first: a $match it refuses is refused wherever it
    // stands, whatever reaches it (mingo would build a later stage's query only for its input)
    for (const stage of pipeline) {
      if (isPlainObject(stage.$match)) refuseMalformedFilter(definedFilter(stage.$match));
    }
    let input: Doc[];
    let rest = pipeline;
    const first = pipeline[0];
    if (first && '$match' in first && Object.keys(first).length === 1) {
      // Let the $match use the _id map and index buckets.
      const filter = first.$match as Filter;
      input = this.matching(filter);
      rest = pipeline.slice(1);
    } else {
      input = [...this.state.docs.values()];
    }
    const readOnly = rest.every((stage) =>
      Object.keys(stage).every((op) => READ_ONLY_STAGES.has(op)),
    );
    const processingMode = readOnly ? ProcessingMode.CLONE_OFF : ProcessingMode.CLONE_INPUT;
    const output = rest.length === 0 ? input : new Aggregator(rest, { processingMode }).run(input);
    return output.map((doc) => copyStored(doc) as R);
  }

  async insertOne(doc: T): Promise<void> {
    this.state.put(this.admit(doc), true);
  }

  async replaceOne(
    filter: Filter,
    doc: T,
    options: { upsert?: boolean } = {},
  ): Promise<WriteResult> {
    const [current] = this.matching(filter, 1);
    const replacement = cloneJson(doc) as Doc;
    if (current) {
      if (replacement._id !== undefined && replacement._id !== current._id) {
        throw new InvalidUpdateError(
          `replaceOne would change _id of ${current._id} in ${this.name}`,
        );
      }
      const next = { ...replacement, _id: current._id } as Doc;
      const modified = JSON.stringify(next) !== JSON.stringify(current);
      if (modified) this.state.put(next, false);
      return { matchedCount: 1, modifiedCount: modified ? 1 : 0, upsertedCount: 0 };
    }
    if (!options.upsert) return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
    const seedId = upsertSeed(filter)._id;
    if (replacement._id !== undefined && seedId !== undefined && replacement._id !== seedId) {
      throw new InvalidUpdateError(
        `replaceOne upsert: _id in filter and document differ in ${this.name}`,
      );
    }
    this.state.put(this.withId({ ...replacement, _id: replacement._id ?? seedId }), true);
    return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
  }

  async updateOne(
    filter: Filter,
    update: Update,
    options: { upsert?: boolean } = {},
  ): Promise<WriteResult> {
    validateUpdate(update);
    const [current] = this.matching(filter, 1);
    if (current) {
      const modified = this.modify(current, update, filter);
      return { matchedCount: 1, modifiedCount: modified ? 1 : 0, upsertedCount: 0 };
    }
    if (!options.upsert) return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
    refusePositionalInsert(update);
    const seed = cloneJson(upsertSeed(filter));
    const { doc } = applyUpdate(seed, update, true);
    this.state.put(this.withId(doc), true);
    return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
  }

  async updateMany(filter: Filter, update: Update): Promise<WriteResult> {
    validateUpdate(update);
    const matched = this.matching(filter);
    let modifiedCount = 0;
    for (const current of matched) if (this.modify(current, update, filter)) modifiedCount++;
    return { matchedCount: matched.length, modifiedCount, upsertedCount: 0 };
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    const [doc] = this.matching(filter, 1);
    if (doc) this.state.remove(doc._id);
    return { deletedCount: doc ? 1 : 0 };
  }

  async deleteMany(filter: Filter): Promise<{ deletedCount: number }> {
    const matched = this.matching(filter);
    for (const doc of matched) this.state.remove(doc._id);
    return { deletedCount: matched.length };
  }

  async createIndex(spec: IndexSpec): Promise<string> {
    return this.state.declareIndex(spec);
  }

  private select(filter: Filter, options: FindOptions): Doc[] {
    const sorted = options.sort !== undefined && Object.keys(options.sort).length > 0;
    // Without a sort the first `skip + limit` matches are the answer: stop scanning there.
    const enough =
      !sorted && options.limit && options.limit > 0
        ? (options.skip ?? 0) + options.limit
        : undefined;
    const matched = this.matching(filter, enough);
    return window(matched, options);
  }

  /** Matching stored documents; the common flat-equality filter skips the general compiler. */
  private matching(given: Filter, limit?: number): Doc[] {
    const filter = definedFilter(given);
    const flat = flatEqualityKeys(filter);
    if (flat !== null) return this.state.match(filter, compileFilter(filter, flat), limit, flat);
    refuseMalformedFilter(filter);
    // Pinned by _id (projectors' guarded updates): one candidate, not worth compiling for.
    const matcher =
      (Object.hasOwn(filter, '_id') && interpretFilter(filter)) || compileFilter(filter);
    return this.state.match(filter, matcher, limit);
  }

  /** `filter` matched `current`: a positional `$` in `update` stands for the item it matched. */
  private modify(current: Doc, update: Update, filter: Filter): boolean {
    const resolved = resolvePositional(update, filter, current);
    const { doc, changed } = applyUpdate(current, resolved, false);
    if (!changed) return false;
    if (doc._id !== current._id) {
      throw new InvalidUpdateError(
        `update would change the immutable _id of ${current._id} in ${this.name}`,
      );
    }
    this.state.put(doc as Doc, false);
    return true;
  }

  private admit(doc: T): Doc {
    const copy = cloneJson(doc) as Doc;
    if (typeof copy._id !== 'string' || copy._id.length === 0) {
      throw new InvalidDocumentError(`documents in ${this.name} need a non-empty string _id`);
    }
    return copy;
  }

  /** MongoDB generates an _id when an upsert's filter gives none; so do we (as a string). */
  private withId(doc: Record<string, unknown>): Doc {
    if (doc._id === undefined) doc._id = randomUUID();
    if (typeof doc._id !== 'string') {
      throw new InvalidDocumentError(`documents in ${this.name} need a string _id`);
    }
    return doc as Doc;
  }
}
