/**
 * What a filter pins down without evaluating it: the equality constraints an index bucket can
 * serve, the `_id`s a lookup can jump to, and the fields an upsert seeds its new document with.
 */
import { InvalidUpdateError } from './errors.js';
import { isPrimitive } from './matcher.js';
import type { Filter } from '../types.js';
import { splitPath } from './paths.js';

type Primitive = string | number | boolean | null;

/**
 * Top-level (and `$and`-nested) fields whose value must be one of a list of primitives:
 * `{a: 1}`, `{a: {$eq: 1}}`, `{a: {$in: [1, 2]}}`. Every matching document satisfies them.
 */
export function equalityConstraints(filter: Filter): Map<string, Primitive[]> {
  const found = new Map<string, Primitive[]>();
  collect(filter, found);
  return found;
}

function collect(filter: Filter, found: Map<string, Primitive[]>): void {
  for (const key of Object.keys(filter)) {
    const operand = filter[key];
    if (key === '$and' && Array.isArray(operand)) {
      for (const branch of operand) {
        if (branch !== null && typeof branch === 'object') collect(branch as Filter, found);
      }
      continue;
    }
    if (key.startsWith('$')) continue;
    const values = pinnedValues(operand);
    // Two constraints on one field: the narrower one is enough to pick candidates.
    const previous = found.get(key);
    if (values && (!previous || values.length < previous.length)) found.set(key, values);
  }
}

function pinnedValues(operand: unknown): Primitive[] | null {
  if (isPrimitive(operand)) return [operand];
  if (operand === null || typeof operand !== 'object' || Array.isArray(operand)) return null;
  const ops = operand as Record<string, unknown>;
  if ('$eq' in ops && isPrimitive(ops.$eq)) return [ops.$eq];
  if ('$in' in ops && Array.isArray(ops.$in) && ops.$in.every(isPrimitive)) {
    return ops.$in as Primitive[];
  }
  return null;
}

/** `_id`s a filter is restricted to, or null when it is not restricted by `_id`. */
export function idCandidates(filter: Filter): string[] | null {
  if (!('_id' in filter)) return null;
  const values = pinnedValues(filter._id);
  if (values === null) return null;
  return values.filter((v): v is string => typeof v === 'string');
}

/**
 * The document an upsert starts from, as in MongoDB: the filter's equality fields (`$eq` and
 * literal values, also inside `$and`), with dotted paths expanded into nested objects.
 */
export function upsertSeed(filter: Filter): Record<string, unknown> {
  const seed: Record<string, unknown> = {};
  seedFrom(filter, seed);
  return seed;
}

function seedFrom(filter: Filter, seed: Record<string, unknown>): void {
  for (const key of Object.keys(filter)) {
    const operand = filter[key];
    if (key === '$and' && Array.isArray(operand)) {
      for (const branch of operand) {
        if (branch !== null && typeof branch === 'object') seedFrom(branch as Filter, seed);
      }
      continue;
    }
    if (key.startsWith('$')) continue;
    let value: unknown;
    if (operand !== null && typeof operand === 'object' && !Array.isArray(operand)) {
      const ops = operand as Record<string, unknown>;
      const keys = Object.keys(ops);
      if (keys.some((k) => k.startsWith('$'))) {
        if (!('$eq' in ops)) continue;
        value = ops.$eq;
      } else {
        value = operand;
      }
    } else {
      value = operand;
    }
    setSeedPath(seed, key, value);
  }
}

function setSeedPath(seed: Record<string, unknown>, path: string, value: unknown): void {
  const segments = splitPath(path);
  let current = seed;
  for (let i = 0; i < segments.length - 1; i++) {
    const key = segments[i]!;
    const next = current[key];
    if (next === undefined) {
      const created: Record<string, unknown> = {};
      current[key] = created;
      current = created;
    } else if (next !== null && typeof next === 'object' && !Array.isArray(next)) {
      current = next as Record<string, unknown>;
    } else {
      throw new InvalidUpdateError(`upsert filter sets both '${key}' and a path below it`);
    }
  }
  current[segments[segments.length - 1]!] = value;
}
