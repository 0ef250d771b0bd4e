/**
 * The stored state of one embedded collection: documents by `_id`, declared indexes, and what
 * changed since the last flush. Every write goes through `put`/`remove` so indexes and the dirty
 * set can never fall out of step with the documents.
 */
import { freezeStored } from './clone.js';
import type { Doc, Filter, IndexSpec } from '../types.js';
import { DuplicateKeyError } from '../types.js';
import { equalityConstraints, idCandidates } from './constraints.js';
import { IndexConflictError } from './errors.js';
import { DeclaredIndex, defaultIndexName } from './indexes.js';
import type { Matcher } from './matcher.js';

type Primitive = string | number | boolean | null;
const hasOwn = Object.prototype.hasOwnProperty;

export class CollectionState {
  readonly docs = new Map<string, Doc>();
  readonly indexes = new Map<string, DeclaredIndex>();
  /** ids written or deleted since the last flush */
  dirty = new Set<string>();
  /** dropped since the last flush: the flush first deletes everything stored on disk */
  dropped = false;
  /** index declarations changed since the last flush */
  indexesDirty = false;

  constructor(readonly name: string) {}

  /** Restore a stored document at open: no checks, not dirty. */
  load(doc: Doc): void {
    this.docs.set(doc._id, freezeStored(doc));
  }

  /** Restore a stored index declaration at open; its structures build on first use. */
  loadIndex(name: string, spec: IndexSpec): void {
    this.indexes.set(name, new DeclaredIndex(name, spec));
  }

  declareIndex(spec: IndexSpec): string {
    const name = spec.name ?? defaultIndexName(spec.keys);
    const existing = this.indexes.get(name);
    if (existing) {
      if (sameSpec(existing.spec, spec, name)) return name;
      throw new IndexConflictError(`index '${name}' on ${this.name} exists with a different spec`);
    }
    const index = new DeclaredIndex(name, { ...spec, keys: { ...spec.keys }, name });
    index.verify(this.name, this.docs);
    this.indexes.set(name, index);
    this.indexesDirty = true;
    return name;
  }

  /** Insert or replace after checking `_id` and unique indexes; throws DuplicateKeyError. */
  put(doc: Doc, expectNew: boolean): void {
    const before = this.docs.get(doc._id);
    if (expectNew && before)
      throw new DuplicateKeyError(this.name, `_id: ${JSON.stringify(doc._id)}`);
    for (const index of this.indexes.values()) index.checkUnique(this.name, this.docs, doc);
    this.docs.set(doc._id, freezeStored(doc));
    for (const index of this.indexes.values()) index.onWrite(before, doc);
    this.dirty.add(doc._id);
  }

  remove(id: string): void {
    const before = this.docs.get(id);
    if (!before) return;
    this.docs.delete(id);
    for (const index of this.indexes.values()) index.onWrite(before, undefined);
    this.dirty.add(id);
  }

  drop(): void {
    this.docs.clear();
    this.indexes.clear();
    this.dirty = new Set();
    this.dropped = true;
    this.indexesDirty = true;
  }

  /** Matching documents in natural order (stored objects: callers must copy before exposing). */
  match(
    filter: Filter,
    matcher: Matcher,
    limit = Number.POSITIVE_INFINITY,
    flat: readonly string[] | null = null,
  ): Doc[] {
    const out: Doc[] = [];
    if (limit <= 0) return out;
    const candidates = flat === null ? this.candidates(filter) : this.flatCandidates(filter, flat);
    for (const doc of candidates) {
      if (matcher(doc)) {
        out.push(doc);
        if (out.length >= limit) break;
      }
    }
    return out;
  }

  /** The smallest superset of matches the `_id` map or an index bucket can give. */
  private candidates(filter: Filter): Iterable<Doc> {
    const ids = idCandidates(filter);
    if (ids !== null) return this.byIds(ids);
    if (this.indexes.size === 0) return this.docs.values();
    const constraints = equalityConstraints(filter);
    if (constraints.size === 0) return this.docs.values();
    let best: { index: DeclaredIndex; prefix: number } | undefined;
    for (const index of this.indexes.values()) {
      let prefix = 0;
      while (prefix < index.fields.length && constraints.has(index.fields[prefix]!)) prefix++;
      if (prefix > 0 && (!best || prefix > best.prefix)) best = { index, prefix };
    }
    if (!best) return this.docs.values();
    const values = best.index.fields.slice(0, best.prefix).map((field) => constraints.get(field)!);
    return best.index.candidates(this.docs, values) ?? this.docs.values();
  }

  /**
   * `candidates` for a filter of top-level equalities on primitives (see flatEqualityKeys):
   * the same choice — `_id`, else the index with the longest pinned prefix — without building
   * the constraint map and key combinations of the general case.
   */
  private flatCandidates(filter: Filter, keys: readonly string[]): Iterable<Doc> {
    if (hasOwn.call(filter, '_id')) {
      const id = filter._id;
      const doc = typeof id === 'string' ? this.docs.get(id) : undefined;
      return doc ? [doc] : [];
    }
    if (this.indexes.size === 0) return this.docs.values();
    let best: DeclaredIndex | undefined;
    let bestPrefix = 0;
    for (const index of this.indexes.values()) {
      const fields = index.fields;
      let prefix = 0;
      while (prefix < fields.length && keys.includes(fields[prefix]!)) prefix++;
      if (prefix > bestPrefix) {
        best = index;
        bestPrefix = prefix;
      }
    }
    if (!best) return this.docs.values();
    return best.candidatesFor(this.docs, filter as Record<string, Primitive>, bestPrefix);
  }

  private byIds(ids: Iterable<string>): Doc[] {
    const out: Doc[] = [];
    for (const id of ids) {
      const doc = this.docs.get(id);
      if (doc) out.push(doc);
    }
    return out;
  }
}

function sameSpec(a: IndexSpec, b: IndexSpec, name: string): boolean {
  return (
    JSON.stringify(a.keys) === JSON.stringify(b.keys) &&
    Boolean(a.unique) === Boolean(b.unique) &&
    (b.name === undefined || b.name === name)
  );
}
