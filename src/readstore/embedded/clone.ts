/**
 * Documents are copied on the way in and frozen once stored, so callers can never mutate stored
 * state: reads hand out the frozen document itself (no copy on the hot read path), and a caller
 * that tries to change it gets a TypeError. Only JSON values are accepted: the store writes JSON to SQLite, and a value that would come back
 * different after a restart (a Date becoming a string, a bigint failing) must fail at write time.
 */
import { InvalidDocumentError } from './errors.js';

export function cloneJson<T>(value: T, path = ''): T {
  if (value === null) return value;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw notJson(path, String(value));
      return value;
    case 'object':
      break;
    default:
      throw notJson(path, typeof value);
  }
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      // JSON turns undefined array slots into null; do it now so memory equals disk.
      out[i] = item === undefined ? null : cloneJson(item, `${path}.${i}`);
    }
    return out as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    throw notJson(path, (value as object).constructor?.name ?? 'object');
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value as object)) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) out[key] = cloneJson(item, path ? `${path}.${key}` : key);
  }
  return out as T;
}

/** Copy of a value already known to be JSON (stored state): no validation. */
export function copyStored<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyStored(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key in value as Record<string, unknown>) {
    out[key] = copyStored((value as Record<string, unknown>)[key]);
  }
  return out as T;
}

/** Deep-freeze a stored value (already a private copy) so reads can share it safely. */
export function freezeStored<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) for (const item of value) freezeStored(item);
  else
    for (const key in value as Record<string, unknown>)
      freezeStored((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}

function notJson(path: string, what: string): InvalidDocumentError {
  return new InvalidDocumentError(
    `read-store values must be JSON (strings, finite numbers, booleans, null, arrays, plain objects); ` +
      `got ${what} at '${path || '(root)'}' (store dates as ISO strings)`,
  );
}
