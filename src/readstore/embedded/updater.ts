/**
 * Update operators. Like filters, the frequent ones ($set, $unset, $inc, $push, $addToSet,
 * $pull by value, $max, $min, $setOnInsert) are applied natively, because mingo's `update`
 * costs ~100 µs a call and projectors issue one per event. `$[]` paths, arrays inside a path
 * (a positional `$` arrives here as the index it stands for: positional.ts), modifiers such as
 * $push.$sort and the rarer operators go to mingo's updater. A property test checks the native
 * path against mingo.
 */
import { update as mingoUpdate } from 'mingo';
import { compare, isEqual } from 'mingo/util';
import type { Update } from '../types.js';
import { cloneJson, copyStored } from './clone.js';
import { InvalidUpdateError } from './errors.js';
import { splitPath } from './paths.js';
import { cannotCreate, refuseNonViablePaths } from './viable.js';

type Obj = Record<string, unknown>;

const NATIVE = new Set([
  '$set',
  '$unset',
  '$inc',
  '$push',
  '$addToSet',
  '$pull',
  '$max',
  '$min',
  '$setOnInsert',
]);

/** Signals that this update on this document needs mingo's full semantics. */
class NeedsMingo extends Error {}

export interface UpdateOutcome {
  doc: Obj;
  changed: boolean;
}

/**
 * Apply `update` to a copy of `stored` (never mutated). `inserting` enables `$setOnInsert`.
 * Operand values are copied too, so neither the caller nor other documents share them.
 */
export function applyUpdate(stored: Obj, update: Update, inserting: boolean): UpdateOutcome {
  const operands = cloneJson(update) as Record<string, Obj>;
  refuseNonViablePaths(stored, operands, inserting);
  if (Object.keys(operands).every((op) => NATIVE.has(op))) {
    // Copy on write: a new top level, and new objects/arrays only along the paths written;
    // everything else is shared with `stored` (stored documents are frozen, see clone.ts).
    const doc = { ...stored };
    try {
      return { doc, changed: applyNative(doc, operands, inserting, new Set([doc])) };
    } catch (error) {
      if (!(error instanceof NeedsMingo)) throw error;
    }
  }
  return viaMingo(copyStored(stored), operands, inserting);
}

function viaMingo(doc: Obj, operands: Record<string, Obj>, inserting: boolean): UpdateOutcome {
  const { $setOnInsert, ...rest } = operands;
  let changed = false;
  if ($setOnInsert && inserting)
    changed = applyNative(doc, { $set: $setOnInsert }, true, new Set(allObjects(doc)));
  if (Object.keys(rest).length === 0) return { doc, changed };
  try {
    // cloneMode none: the operands are already our own copies.
    const fields = mingoUpdate(doc, rest, undefined, undefined, { cloneMode: 'none' });
    return { doc, changed: changed || fields.length > 0 };
  } catch (error) {
    throw new InvalidUpdateError(error instanceof Error ? error.message : String(error));
  }
}

/** Objects and arrays reachable from `doc` (viaMingo's doc is a private deep copy). */
function allObjects(value: unknown, out: object[] = []): object[] {
  if (value === null || typeof value !== 'object') return out;
  out.push(value);
  for (const item of Object.values(value)) allObjects(item, out);
  return out;
}

/**
 * `owned`: the objects and arrays of `doc` this update made, which it may change in place;
 * anything else is shared with the stored document and is copied before a change.
 */
function applyNative(
  doc: Obj,
  operands: Record<string, Obj>,
  inserting: boolean,
  owned: Set<object>,
): boolean {
  let changed = false;
  for (const op of Object.keys(operands)) {
    const fields = operands[op]!;
    for (const path of Object.keys(fields)) {
      if (path.includes('$')) throw new NeedsMingo();
      const value = fields[path];
      if (applyOne(doc, op, path, value, inserting, owned)) changed = true;
    }
  }
  return changed;
}

function applyOne(
  doc: Obj,
  op: string,
  path: string,
  value: unknown,
  inserting: boolean,
  owned: Set<object>,
): boolean {
  // MongoDB: "If an update operation with upsert: true results in an update of an existing
  // document, $setOnInsert does nothing" — its path is not even walked, nor its parents made.
  if (op === '$setOnInsert' && !inserting) return false;
  const segments = splitPath(path);
  const leaf = segments[segments.length - 1]!;
  // $unset and $pull never create parents; the others do.
  const creates = op !== '$unset' && op !== '$pull';
  const parent = parentOf(doc, segments, creates, owned);
  if (parent === undefined) return false;
  const exists = Object.hasOwn(parent, leaf);
  const current = exists ? parent[leaf] : undefined;
  switch (op) {
    case '$setOnInsert':
    case '$set':
      return assign(parent, leaf, exists, current, value);
    case '$unset':
      if (!exists) return false;
      delete parent[leaf];
      return true;
    case '$inc': {
      if (typeof value !== 'number')
        throw new InvalidUpdateError(`$inc of '${path}' needs a number`);
      if (!exists) return assign(parent, leaf, exists, current, value);
      if (typeof current !== 'number') {
        throw new InvalidUpdateError(`cannot apply $inc to non-numeric field '${path}'`);
      }
      parent[leaf] = current + value;
      return value !== 0;
    }
    case '$max':
    case '$min': {
      if (!exists) return assign(parent, leaf, exists, current, value);
      const order = compare(value, current);
      if (op === '$max' ? order > 0 : order < 0) {
        parent[leaf] = value;
        return true;
      }
      return false;
    }
    case '$push':
    case '$addToSet': {
      const { items, slice } = eachItems(value);
      if (slice !== null && op !== '$push') throw new NeedsMingo();
      if (!exists) {
        // a missing field is an empty array, $slice applying to it too
        parent[leaf] = op === '$push' ? sliced(items, slice) : dedupe(items, []);
        return true;
      }
      if (!Array.isArray(current)) {
        throw new InvalidUpdateError(`cannot apply ${op} to non-array field '${path}'`);
      }
      const added = op === '$push' ? items : dedupe(items, current);
      if (slice !== null)
        return assign(parent, leaf, exists, current, sliced([...current, ...added], slice));
      if (added.length === 0) return false;
      if (owned.has(current)) for (const item of added) current.push(item);
      else {
        const grown = [...current, ...added];
        owned.add(grown);
        parent[leaf] = grown;
      }
      return true;
    }
    case '$pull': {
      // Conditions ({$gte: 5}, {field: x}) are queries over elements: mingo's job.
      if (value !== null && typeof value === 'object' && !Array.isArray(value))
        throw new NeedsMingo();
      if (!exists) return false;
      if (!Array.isArray(current)) throw new NeedsMingo();
      const kept = current.filter((item) => !isEqual(item, value));
      if (kept.length === current.length) return false;
      parent[leaf] = kept;
      return true;
    }
    default:
      throw new NeedsMingo();
  }
}

function assign(parent: Obj, leaf: string, exists: boolean, current: unknown, value: unknown) {
  if (exists && isEqual(current, value)) return false;
  parent[leaf] = value;
  return true;
}

/**
 * `$push: {a: {$each: [..], $slice: n}}` pushes the items, then keeps the first n (the last -n);
 * other modifiers ($sort, $position) go to mingo.
 */
function eachItems(value: unknown): { items: unknown[]; slice: number | null } {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.some((k) => k.startsWith('$'))) {
      const { $each: each, $slice: slice, ...others } = value as Record<string, unknown>;
      if (each === undefined || Object.keys(others).length > 0) throw new NeedsMingo();
      if (!Array.isArray(each)) throw new InvalidUpdateError('$each expects an array');
      if (slice !== undefined && !Number.isInteger(slice)) {
        throw new InvalidUpdateError('$slice expects an integer');
      }
      return { items: each, slice: (slice as number | undefined) ?? null };
    }
  }
  return { items: [value], slice: null };
}

function sliced(items: unknown[], slice: number | null): unknown[] {
  if (slice === null) return items;
  return slice < 0 ? items.slice(slice) : items.slice(0, slice);
}

function dedupe(items: unknown[], existing: unknown[]): unknown[] {
  const added: unknown[] = [];
  for (const item of items) {
    if (!existing.some((e) => isEqual(e, item)) && !added.some((e) => isEqual(e, item))) {
      added.push(item);
    }
  }
  return added;
}

/**
 * The object holding the leaf; undefined when it is missing (or a value that is not a document
 * stands in the path) and `create` is false.
 */
function parentOf(
  doc: Obj,
  segments: readonly string[],
  create: boolean,
  owned: Set<object>,
): Obj | undefined {
  let current: Obj = doc;
  for (let i = 0; i < segments.length - 1; i++) {
    const key = segments[i]!;
    const next = Object.hasOwn(current, key) ? current[key] : undefined;
    if (next === undefined) {
      if (!create) return undefined;
      const created: Obj = {};
      owned.add(created);
      current[key] = created;
      current = created;
    } else if (next !== null && typeof next === 'object' && !Array.isArray(next)) {
      if (owned.has(next)) current = next as Obj;
      else {
        // shared with the stored document: this update writes below it, so it gets its own copy
        const copy: Obj = { ...(next as Obj) };
        owned.add(copy);
        current[key] = copy;
        current = copy;
      }
    } else if (Array.isArray(next)) {
      // numeric segments: let mingo decide or refuse
      throw new NeedsMingo();
    } else if (!create) {
      return undefined;
    } else {
      // refuseNonViablePaths passed the stored document, so this update's own write put the
      // value here ({$set: {a: 5, 'a.b': 1}}), which MongoDB refuses as a conflict (as
      // update-shape.ts does first, for a whole update): refused too
      throw cannotCreate(segments, { at: i + 1, holder: next });
    }
  }
  return current;
}
