/**
 * Declared indexes of one embedded collection. An index over fields [f1..fn] keeps, per prefix
 * length j, buckets from the encoded values of f1..fj to document ids; a find with plain
 * equality (or $in) on f1..fj scans only those buckets. Buckets are built lazily, on the first
 * query that uses that prefix, so booting a large store pays nothing for them. A unique index
 * also keeps owner ids per full key, built before its first write is checked.
 */
import type { Doc, IndexSpec } from '../types.js';
import { DuplicateKeyError } from '../types.js';
import { BRANCHES, getPath, splitPath } from './paths.js';

type Primitive = string | number | boolean | null;

/** Too many combinations (several array fields): treat the document as irregular instead. */
const MAX_KEYS = 64;
const EMPTY: ReadonlySet<Doc> = new Set();

interface Level {
  // Stored document objects, not ids: a Map lookup per candidate costs more than the match.
  buckets: Map<string, Set<Doc>>;
  /** documents whose values are not plain scalars: candidates for every query */
  irregular: Set<Doc>;
}

export class DeclaredIndex {
  readonly fields: readonly string[];
  private readonly segments: readonly (readonly string[])[];
  private readonly levels: (Level | undefined)[];
  private owners: Map<string, string> | undefined;

  constructor(
    readonly name: string,
    readonly spec: IndexSpec,
  ) {
    this.fields = Object.keys(spec.keys);
    this.segments = this.fields.map(splitPath);
    this.levels = new Array(this.fields.length).fill(undefined);
  }

  get unique(): boolean {
    return this.spec.unique === true;
  }

  /** Candidate ids for documents whose first `values.length` fields take one of the values. */
  candidates(docs: ReadonlyMap<string, Doc>, values: Primitive[][]): ReadonlySet<Doc> | null {
    const level = this.level(docs, values.length);
    const keys = combine(values.map((options) => options.map(encodeScalar)));
    if (keys === null) return null;
    // The common case, one key and no irregular documents: hand out the bucket itself (the
    // caller only iterates it before any write can happen).
    if (keys.length === 1 && level.irregular.size === 0)
      return level.buckets.get(keys[0]!) ?? EMPTY;
    const out = new Set<Doc>(level.irregular);
    for (const key of keys) {
      const bucket = level.buckets.get(key);
      if (bucket) for (const doc of bucket) out.add(doc);
    }
    return out;
  }

  /** `candidates` for one value per field, taken from `values[field]` for the first `length` fields. */
  candidatesFor(
    docs: ReadonlyMap<string, Doc>,
    values: Record<string, Primitive>,
    length: number,
  ): ReadonlySet<Doc> {
    const level = this.level(docs, length);
    let key = encodeScalar(values[this.fields[0]!]!);
    for (let i = 1; i < length; i++) key = `${key}\u0000${encodeScalar(values[this.fields[i]!]!)}`;
    const bucket = level.buckets.get(key);
    if (level.irregular.size === 0) return bucket ?? EMPTY;
    const out = new Set<Doc>(level.irregular);
    if (bucket) for (const doc of bucket) out.add(doc);
    return out;
  }

  /** Throws DuplicateKeyError when `doc` would collide with another document. */
  checkUnique(collection: string, docs: ReadonlyMap<string, Doc>, doc: Doc): void {
    if (!this.unique) return;
    const owners = this.ownerMap(collection, docs);
    for (const key of this.uniqueKeys(doc)) {
      const owner = owners.get(key);
      if (owner !== undefined && owner !== doc._id) throw this.duplicate(collection, doc);
    }
  }

  /** Keep built structures in step with a write (before = undefined: insert; after: delete). */
  onWrite(before: Doc | undefined, after: Doc | undefined): void {
    for (let j = 0; j < this.levels.length; j++) {
      const level = this.levels[j];
      if (!level) continue;
      // Buckets hold the document objects, so a replaced document moves even if its keys did not.
      if (before) removeFrom(level, before, this.queryKeys(before, j + 1));
      if (after) addTo(level, after, this.queryKeys(after, j + 1));
    }
    if (this.owners) {
      if (before) for (const key of this.uniqueKeys(before)) this.owners.delete(key);
      if (after) for (const key of this.uniqueKeys(after)) this.owners.set(key, after._id);
    }
  }

  /** Build the unique owner map now (createIndex must refuse existing duplicates). */
  verify(collection: string, docs: ReadonlyMap<string, Doc>): void {
    if (this.unique) this.ownerMap(collection, docs);
  }

  private ownerMap(collection: string, docs: ReadonlyMap<string, Doc>): Map<string, string> {
    if (this.owners) return this.owners;
    const owners = new Map<string, string>();
    for (const doc of docs.values()) {
      for (const key of this.uniqueKeys(doc)) {
        if (owners.has(key) && owners.get(key) !== doc._id) throw this.duplicate(collection, doc);
        owners.set(key, doc._id);
      }
    }
    this.owners = owners;
    return owners;
  }

  private level(docs: ReadonlyMap<string, Doc>, length: number): Level {
    let level = this.levels[length - 1];
    if (!level) {
      level = { buckets: new Map(), irregular: new Set() };
      for (const doc of docs.values()) addTo(level, doc, this.queryKeys(doc, length));
      this.levels[length - 1] = level;
    }
    return level;
  }

  /** Bucket keys of a document for the first `length` fields; null = irregular. */
  private queryKeys(doc: Doc, length: number): string[] | null {
    // Fast path: all scalars, one key, no intermediate arrays.
    let key = '';
    for (let i = 0; i < length; i++) {
      const value = getPath(doc, this.segments[i]!);
      if (value !== null && typeof value === 'object') return this.fanOutKeys(doc, length);
      if (value === BRANCHES) return null;
      key =
        i === 0
          ? encodeScalar(value as Primitive)
          : `${key}\u0000${encodeScalar(value as Primitive)}`;
    }
    return [key];
  }

  private fanOutKeys(doc: Doc, length: number): string[] | null {
    const perField: string[][] = [];
    for (let i = 0; i < length; i++) {
      const value = getPath(doc, this.segments[i]!);
      const keys = scalarKeys(value);
      if (keys === null) return null;
      perField.push(keys);
    }
    return combine(perField);
  }

  /** Keys under which MongoDB's unique index would hold `doc`: arrays fan out per element. */
  private uniqueKeys(doc: Doc): string[] {
    const perField = this.segments.map((segments) => {
      const value = getPath(doc, segments);
      if (value === BRANCHES) return [`j${JSON.stringify(getPath(doc, segments.slice(0, 1)))}`];
      if (Array.isArray(value)) {
        return value.length === 0 ? ['a[]'] : [...new Set(value.map(encodeExact))];
      }
      return [encodeExact(value)];
    });
    return combine(perField, Number.POSITIVE_INFINITY) ?? [];
  }

  private duplicate(collection: string, doc: Doc): DuplicateKeyError {
    const values = this.fields.map(
      (field) => `${field}: ${JSON.stringify(getPath(doc, splitPath(field)) ?? null)}`,
    );
    return new DuplicateKeyError(collection, `${this.name} { ${values.join(', ')} }`);
  }
}

/** Type-tagged key so 1 and '1' never share a bucket; missing and null share one, as in queries. */
export function encodeScalar(value: Primitive | undefined): string {
  if (value === null || value === undefined) return 'z';
  switch (typeof value) {
    case 'string':
      return `s${value}`;
    case 'number':
      return `n${value}`;
    case 'boolean':
      return value ? 'bt' : 'bf';
  }
}

function scalarKeys(value: unknown): string[] | null {
  if (value === BRANCHES) return null;
  if (Array.isArray(value)) {
    // Arrays of scalars fan out: {tags: 'x'} must find ['x', 'y'].
    if (value.length === 0) return null;
    const keys: string[] = [];
    for (const item of value) {
      if (item !== null && typeof item === 'object') return null;
      keys.push(encodeScalar(item as Primitive));
    }
    return [...new Set(keys)];
  }
  if (value !== null && typeof value === 'object') return null;
  return [encodeScalar(value as Primitive | undefined)];
}

function encodeExact(value: unknown): string {
  if (value !== null && typeof value === 'object') return `j${JSON.stringify(value)}`;
  return encodeScalar(value as Primitive | undefined);
}

function combine(perField: string[][], max = MAX_KEYS): string[] | null {
  let keys = [''];
  for (let i = 0; i < perField.length; i++) {
    const next: string[] = [];
    for (const prefix of keys) {
      for (const key of perField[i]!) next.push(i === 0 ? key : `${prefix}\u0000${key}`);
    }
    if (next.length > max) return null;
    keys = next;
  }
  return keys;
}

function addTo(level: Level, doc: Doc, keys: string[] | null): void {
  if (keys === null) {
    level.irregular.add(doc);
    return;
  }
  for (const key of keys) {
    let bucket = level.buckets.get(key);
    if (!bucket) {
      bucket = new Set();
      level.buckets.set(key, bucket);
    }
    bucket.add(doc);
  }
}

function removeFrom(level: Level, doc: Doc, keys: string[] | null): void {
  if (keys === null) {
    level.irregular.delete(doc);
    return;
  }
  for (const key of keys) {
    const bucket = level.buckets.get(key);
    if (!bucket) continue;
    bucket.delete(doc);
    if (bucket.size === 0) level.buckets.delete(key);
  }
}

/** MongoDB's default index name: `field_1_other_-1`. */
export function defaultIndexName(keys: IndexSpec['keys']): string {
  return Object.entries(keys)
    .map(([field, direction]) => `${field}_${direction}`)
    .join('_');
}
