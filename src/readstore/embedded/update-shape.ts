/**
 * An update as MongoDB's parser takes it (mongo src/mongo/db/update/update_driver.cpp,
 * update_object_node.cpp): refused before any document is looked at, so whatever the collection
 * holds and whether anything matches. What depends on the document is viable.ts's.
 */
import type { Update } from '../types.js';
import { InvalidUpdateError } from './errors.js';
import { splitPath } from './paths.js';

/**
 * Reject what MongoDB rejects before touching anything: no operators, a plain document, or two
 * paths in conflict.
 */
export function validateUpdate(update: Update): void {
  const keys = Object.keys(update);
  if (keys.length === 0) throw new InvalidUpdateError('update document is empty');
  for (const key of keys) {
    if (!key.startsWith('$')) {
      throw new InvalidUpdateError(`update document requires operators; found field '${key}'`);
    }
    const operand = update[key];
    if (operand === null || typeof operand !== 'object' || Array.isArray(operand)) {
      throw new InvalidUpdateError(`${key} expects a document of field paths`);
    }
  }
  refuseConflictingPaths(update);
}

/**
 * MongoDB builds one tree of an update's paths and refuses a path that is already in it, or
 * that has a path of it inside it or around it: "Updating the path 'a.b' would create a
 * conflict at 'a'" (ConflictingUpdateOperators). A part followed by `$[]` or `$[id]` is an array
 * node, by anything else a document node, so 'a.$[].b' and 'a.0' conflict at 'a' too. A
 * $rename holds both its source and its destination (conflict_placeholder_node.h). mingo would
 * apply such operators one after the other; the native updater too.
 */
function refuseConflictingPaths(update: Update): void {
  const taken: (readonly string[])[] = [];
  for (const op of Object.keys(update)) {
    const fields = update[op] as Record<string, unknown>;
    for (const path of Object.keys(fields)) {
      take(taken, path);
      const to = fields[path];
      if (op === '$rename' && typeof to === 'string') take(taken, to);
    }
  }
}

function take(taken: (readonly string[])[], path: string): void {
  const segments = splitPath(path);
  for (const other of taken) {
    const shared = conflictAt(segments, other);
    if (shared !== 0) {
      throw new InvalidUpdateError(
        `Updating the path '${path}' would create a conflict at '${segments.slice(0, shared).join('.')}'`,
      );
    }
  }
  taken.push(segments);
}

/** How many leading parts two paths conflict at, or 0 when they do not. */
function conflictAt(a: readonly string[], b: readonly string[]): number {
  const length = Math.min(a.length, b.length);
  let shared = 0;
  while (shared < length && a[shared] === b[shared]) shared++;
  if (shared === length) return shared;
  if (shared > 0 && isArrayNode(a[shared]!) !== isArrayNode(b[shared]!)) return shared;
  return 0;
}

function isArrayNode(part: string): boolean {
  return part.startsWith('$[') && part.endsWith(']');
}
