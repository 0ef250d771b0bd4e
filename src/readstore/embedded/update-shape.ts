/**
 * An update as MongoDB's parser takes it (mongo src/mongo/db/update/update_driver.cpp,
 * update_object_node.cpp): refused before any document is looked at, so whatever the collection
 * holds and whether anything matches. What depends on the document is viable.ts's.
 */
import type { Update } from '../types.js';
import { InvalidUpdateError } from './errors.js';
import { splitPath } from './paths.js';

/**
 * Reject what MongoDB rejects before touching anything: no operators, a plain document, a
 * malformed path, or two paths in conflict.
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
  for (const key of keys) {
    const fields = update[key] as Record<string, unknown>;
    for (const path of Object.keys(fields)) {
      refuseMalformedPath(path);
      if (key === '$rename') {
        const to = fields[path];
        if (typeof to !== 'string') {
          throw new InvalidUpdateError(`The 'to' field for $rename must be a string: ${path}`);
        }
        refuseMalformedPath(to);
      }
    }
  }
  refuseConflictingPaths(update);
}

/**
 * The paths MongoDB refuses whatever the document (field_checker.cpp isUpdatable,
 * update_object_node.cpp parseAndMerge): an empty part, `$` or `$[..]` first, two `$`, and
 * `$[id]`, which needs an array filter this port never passes.
 */
function refuseMalformedPath(path: string): void {
  if (path === '') throw new InvalidUpdateError('An empty update path is not valid.');
  const segments = splitPath(path);
  let positional = 0;
  for (let at = 0; at < segments.length; at++) {
    const part = segments[at]!;
    if (part === '') {
      throw new InvalidUpdateError(
        `The update path '${path}' contains an empty field name, which is not allowed.`,
      );
    }
    if (part === '$') positional++;
    const all = isArrayNode(part);
    if (at === 0 && (part === '$' || all)) {
      throw new InvalidUpdateError(
        `Cannot have a positional element ('${part}') in the first position in path '${path}'`,
      );
    }
    if (all && part !== '$[]') {
      throw new InvalidUpdateError(
        `No array filter found for identifier '${part.slice(2, -1)}' in path '${path}'`,
      );
    }
  }
  if (positional > 1) {
    throw new InvalidUpdateError(`Too many positional (i.e. '$') elements found in path '${path}'`);
  }
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
