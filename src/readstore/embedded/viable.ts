/**
 * MongoDB's rules for an update path on a given document, checked here, once, before either
 * updater runs, because mingo instead does nothing, silently ($rename even drops its source).
 *
 * A path is viable when each of its parts can be walked or created: a part of an embedded
 * document, a numeric part of an array, or a part that is not there yet (mongo
 * src/mongo/db/update/path_support.h). Every operator refuses a path that is not viable
 * (PathNotViable, code 28): those that write cannot create the field ("Cannot create field 'x' in
 * element {a: 1}"), and $pull, $pullAll, $pop and $rename's source refuse it although they create
 * nothing (update_leaf_node.cpp, rename_node.cpp). Only $unset leaves such a path alone
 * (allowNonViablePath) — though not a missing array named by `$[]`, below — and $setOnInsert
 * does nothing at all unless it inserts.
 *
 * `$[]` stands for every item of an array that is there (update_array_node.cpp: "The path 'a'
 * must exist in the document in order to apply array updates", "Cannot apply array updates to
 * non-array element"), and the rest of the path is walked from each item, so an item that is a
 * value blocks it. Array operators need an array where the path ends (array_culling_node.cpp,
 * pop_node.cpp, push_node.cpp, addtoset_node.cpp), $inc and $mul a number (arithmetic_node.cpp),
 * $bit an integer (bit_node.cpp).
 */
import type { Update } from '../types.js';
import { InvalidUpdateError } from './errors.js';
import { bsonTypeName } from './objects.js';
import { splitPath } from './paths.js';

/** The first part that cannot be walked, and the value at the part before it. */
interface Blocked {
  at: number;
  holder: unknown;
}

/** Where a path leads in one document; `segments` name `$[]`'s items by their index. */
type Reached =
  | { kind: 'missing' }
  | { kind: 'found'; value: unknown }
  | ({ kind: 'blocked' } & Blocked)
  | ({ kind: 'not-an-array' } & Blocked);

/** Operators that create nothing but still refuse a path they cannot walk. */
const TRAVERSING = new Set(['$pull', '$pullAll', '$pop', '$rename']);

/** Operators that need an array where their path ends, when something is there. */
const ON_ARRAYS = new Set(['$pull', '$pullAll', '$pop', '$push', '$addToSet']);

/** Operators that need a number (an integer for $bit) where their path ends, likewise. */
const ON_NUMBERS = new Set(['$inc', '$mul', '$bit']);

const MISSING: Reached = { kind: 'missing' };

/** Refuse `operands` (an update's operators) where MongoDB refuses them on `doc`. */
export function refuseNonViablePaths(
  doc: Record<string, unknown>,
  operands: Update,
  inserting: boolean,
): void {
  for (const op of Object.keys(operands)) {
    if (op === '$setOnInsert' && !inserting) continue;
    const fields = operands[op] as Record<string, unknown>;
    if (op === '$unset') {
      for (const path of Object.keys(fields)) refuseMissingArrays(doc, path);
      continue;
    }
    for (const path of Object.keys(fields)) {
      // a top-level field sits in the document itself: always viable, only its value matters
      const typed = ON_ARRAYS.has(op) || ON_NUMBERS.has(op);
      if (path.indexOf('.') === -1 && !typed && op !== '$rename') continue;
      walk(doc, splitPath(path), 0, (reached, segments) => {
        if (reached.kind === 'missing') return;
        if (reached.kind === 'blocked') throw notViable(op, segments, reached);
        if (reached.kind === 'not-an-array') throw notArrayHolder(segments, reached);
        if (ON_ARRAYS.has(op) && !Array.isArray(reached.value)) {
          throw notAnArray(op, segments, reached.value);
        }
        if (ON_NUMBERS.has(op) && !isNumber(op, reached.value)) {
          throw notANumber(op, segments, reached.value);
        }
        const to = fields[path];
        // $rename writes its source's value at the destination: only then is that path walked
        if (op === '$rename' && typeof to === 'string') {
          walk(doc, splitPath(to), 0, (target, toSegments) => {
            if (target.kind === 'blocked') throw notViable('$set', toSegments, target);
          });
        }
      });
    }
  }
}

/**
 * $unset leaves a path it cannot walk alone, but not the array a `$[]` names: MongoDB reaches
 * the array node whatever the operator (update_object_node.cpp applyChild).
 */
function refuseMissingArrays(doc: Record<string, unknown>, path: string): void {
  if (path.indexOf('$[]') === -1) return;
  walk(doc, splitPath(path), 0, (reached, segments) => {
    if (reached.kind === 'not-an-array') throw notArrayHolder(segments, reached);
  });
}

/** MongoDB's message, for the native updater meeting a value its own writes put in the path. */
export function cannotCreate(segments: readonly string[], blocked: Blocked): InvalidUpdateError {
  const { at, holder } = blocked;
  return new InvalidUpdateError(
    `cannot create field '${segments[at]}' in element {${segments[at - 1]}: ${JSON.stringify(holder)}}`,
  );
}

function notViable(op: string, segments: readonly string[], blocked: Blocked): InvalidUpdateError {
  if (!TRAVERSING.has(op)) return cannotCreate(segments, blocked);
  const { at, holder } = blocked;
  return new InvalidUpdateError(
    `${op}: cannot use the part (${segments[at]}) of (${segments.join('.')}) to traverse the element ({${segments[at - 1]}: ${JSON.stringify(holder)}})`,
  );
}

function notArrayHolder(segments: readonly string[], { at, holder }: Blocked): InvalidUpdateError {
  if (holder === undefined) {
    return new InvalidUpdateError(
      `The path '${segments.slice(0, at).join('.')}' must exist in the document in order to apply array updates.`,
    );
  }
  return new InvalidUpdateError(
    `Cannot apply array updates to non-array element ${segments[at - 1]}: ${JSON.stringify(holder)}`,
  );
}

function notAnArray(op: string, segments: readonly string[], value: unknown): InvalidUpdateError {
  const path = segments.join('.');
  const type = bsonTypeName(value);
  switch (op) {
    case '$pull':
    case '$pullAll':
      return new InvalidUpdateError('Cannot apply $pull to a non-array value');
    case '$pop':
      return new InvalidUpdateError(
        `Path '${path}' contains an element of non-array type '${type}'`,
      );
    case '$push':
      return new InvalidUpdateError(`The field '${path}' must be an array but is of type ${type}`);
    default:
      return new InvalidUpdateError(
        `Cannot apply ${op} to non-array field. Field named '${segments[segments.length - 1]}' has non-array type ${type}`,
      );
  }
}

function isNumber(op: string, value: unknown): boolean {
  // $bit needs an int (or a long, which a JSON store never holds): 2 ** 40 is stored as a double
  return op === '$bit' ? bsonTypeName(value) === 'int' : typeof value === 'number';
}

function notANumber(op: string, segments: readonly string[], value: unknown): InvalidUpdateError {
  const field = segments[segments.length - 1];
  const type = bsonTypeName(value);
  const kind = op === '$bit' ? 'non-integral' : 'non-numeric';
  return new InvalidUpdateError(
    `Cannot apply ${op} to a value of ${kind} type: the field '${field}' is of type ${type}`,
  );
}

/**
 * Walk `segments` from `holder` (the value at part `from`), calling `reached` once for each place
 * the path leads: once, or once per item of each `$[]`. 'missing' when a part is not there (it
 * would be created) or is `$` or `$[id]` (mingo resolves, or refuses, those), 'blocked' by a
 * number, a string, a boolean, a null or an array read by name.
 */
function walk(
  holder: unknown,
  segments: readonly string[],
  from: number,
  reached: (where: Reached, segments: readonly string[]) => void,
): void {
  for (let at = from; at < segments.length; at++) {
    const part = segments[at]!;
    if (part === '$[]') {
      if (!Array.isArray(holder)) {
        reached({ kind: 'not-an-array', at, holder }, segments);
        return;
      }
      holder.forEach((item, index) => {
        const named = [...segments];
        named[at] = String(index);
        walk(item, named, at + 1, reached);
      });
      return;
    }
    if (part === '$' || (part.startsWith('$[') && part.endsWith(']'))) {
      reached(MISSING, segments);
      return;
    }
    let next: unknown;
    if (Array.isArray(holder)) {
      if (!/^\d+$/.test(part)) {
        reached(arrayMissing(segments, at) ?? { kind: 'blocked', at, holder }, segments);
        return;
      }
      next = holder[Number(part)];
    } else if (holder !== null && typeof holder === 'object') {
      next = Object.hasOwn(holder, part) ? (holder as Record<string, unknown>)[part] : undefined;
    } else {
      reached(arrayMissing(segments, at) ?? { kind: 'blocked', at, holder }, segments);
      return;
    }
    if (next === undefined) {
      reached(arrayMissing(segments, at) ?? MISSING, segments);
      return;
    }
    holder = next;
  }
  reached({ kind: 'found', value: holder }, segments);
}

/**
 * Part `at` is not there or cannot be walked: a `$[]` further on names an array that is not
 * there ("The path 'a.b' must exist in the document in order to apply array updates").
 */
function arrayMissing(segments: readonly string[], at: number): Reached | null {
  const all = segments.indexOf('$[]', at + 1);
  return all === -1 ? null : { kind: 'not-an-array', at: all, holder: undefined };
}
