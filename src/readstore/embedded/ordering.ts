/**
 * Sort, skip, limit and projection over matched documents, with mingo's comparison order.
 * Ties are broken by `_id` so a result never depends on which index produced the candidates
 * (MongoDB leaves tie order unspecified, so this is allowed and makes paging stable).
 */
import { Query } from 'mingo';
import { compare, resolve } from 'mingo/util';
import type { Doc, FindOptions, Projection, Sort } from '../types.js';
import { copyStored } from './clone.js';
import { BRANCHES, getPath, splitPath } from './paths.js';

type Comparator = (a: Doc, b: Doc) => number;

interface SortKey {
  segments: readonly string[];
  path: string;
  direction: 1 | -1;
}

function sortKeys(sort: Sort): SortKey[] {
  return Object.entries(sort).map(([path, direction]) => ({
    segments: splitPath(path),
    path,
    direction,
  }));
}

/** mingo's order; two strings or two numbers (the usual sort keys) are compared directly. */
function compareValues(a: unknown, b: unknown): number {
  const type = typeof a;
  if ((type === 'string' || type === 'number') && typeof b === type) {
    return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  }
  return compare(a, b);
}

function byId(a: Doc, b: Doc): number {
  return a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
}

export function compileSort(sort: Sort): Comparator {
  const keys = sortKeys(sort);
  return (a, b) => {
    for (const { segments, path, direction } of keys) {
      const order = compareValues(sortValue(a, segments, path), sortValue(b, segments, path));
      if (order !== 0) return order * direction;
    }
    return byId(a, b);
  };
}

function sortValue(doc: Doc, segments: readonly string[], path: string): unknown {
  const value = getPath(doc, segments);
  // Paths through arrays resolve to the list of reached values, as mingo's resolve does.
  return value === BRANCHES ? resolve(doc, path) : value;
}

/** A full sort reads each document's sort values once, not once per comparison. */
function sortAll(docs: Doc[], sort: Sort): Doc[] {
  const keys = sortKeys(sort);
  const rows = docs.map((doc) => ({
    doc,
    values: keys.map(({ segments, path }) => sortValue(doc, segments, path)),
  }));
  rows.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const order = compareValues(a.values[i], b.values[i]);
      if (order !== 0) return order * keys[i]!.direction;
    }
    return byId(a.doc, b.doc);
  });
  return rows.map((row) => row.doc);
}

/**
 * Sort (when asked), then skip and limit. With a small window over many documents, keep only
 * the best `skip + limit` while scanning instead of sorting everything.
 */
export function window(docs: Doc[], options: FindOptions): Doc[] {
  const skip = Math.max(0, options.skip ?? 0);
  const limit = options.limit && options.limit > 0 ? options.limit : undefined;
  let ordered = docs;
  if (options.sort && Object.keys(options.sort).length > 0) {
    const wanted = limit === undefined ? undefined : skip + limit;
    ordered =
      wanted !== undefined && wanted * 8 < docs.length
        ? topK(docs, wanted, compileSort(options.sort))
        : sortAll(docs, options.sort);
  }
  if (skip === 0 && limit === undefined) return ordered;
  return ordered.slice(skip, limit === undefined ? undefined : skip + limit);
}

function topK(docs: Doc[], k: number, comparator: Comparator): Doc[] {
  const best: Doc[] = [];
  for (const doc of docs) {
    if (best.length === k && comparator(doc, best[k - 1]!) >= 0) continue;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (comparator(best[mid]!, doc) <= 0) low = mid + 1;
      else high = mid;
    }
    best.splice(low, 0, doc);
    if (best.length > k) best.pop();
  }
  return best;
}

/**
 * `doc` for the caller, projected. Stored documents are frozen, so the unprojected document is
 * handed out as it is; a projection builds a new top level over the same frozen values.
 * Top-level projections are done here; others by mingo.
 */
export function present(doc: Doc, projection: Projection | undefined): Doc {
  if (!projection || Object.keys(projection).length === 0) return doc;
  const fields = Object.keys(projection);
  if (fields.some((field) => field.includes('.') || field.startsWith('$'))) {
    const projected = new Query({}).find([doc], projection).all()[0] as Doc;
    return copyStored(projected);
  }
  const including = fields.some((field) => field !== '_id' && projection[field] === 1);
  const out: Record<string, unknown> = {};
  if (including) {
    if (projection._id !== 0) out._id = doc._id;
    for (const field of fields) {
      if (field !== '_id' && projection[field] === 1 && Object.hasOwn(doc, field)) {
        out[field] = doc[field];
      }
    }
  } else {
    for (const key of Object.keys(doc)) {
      if (projection[key] !== 0) out[key] = doc[key];
    }
  }
  return out as Doc;
}
