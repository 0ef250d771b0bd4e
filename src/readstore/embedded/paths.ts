/**
 * Dotted-path access on plain documents. The fast paths only walk plain objects; an array in the
 * middle of a path (MongoDB's implicit fan-out over array elements) is reported as BRANCHES so
 * the caller can hand that document to mingo, which implements the full semantics.
 */

export const BRANCHES: unique symbol = Symbol('path crosses an array');

const hasOwn = Object.prototype.hasOwnProperty;

const splitCache = new Map<string, readonly string[]>();

/** Path segments; cached because filters, sorts and indexes repeat the same few paths. */
export function splitPath(path: string): readonly string[] {
  let segments = splitCache.get(path);
  if (segments === undefined) {
    segments = path.split('.');
    if (splitCache.size < 10_000) splitCache.set(path, segments);
  }
  return segments;
}

/** The value at `segments`, undefined when missing, BRANCHES when an array sits mid-path. */
export function getPath(doc: unknown, segments: readonly string[]): unknown {
  let current: unknown = doc;
  for (let i = 0; i < segments.length; i++) {
    if (current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) return BRANCHES;
    const key = segments[i]!;
    if (!hasOwn.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
