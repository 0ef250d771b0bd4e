/**
 * MongoDB's rule for an update path through a value that is not a document. A path is viable
 * when each of its parts can be walked or created: a part of an embedded document, a numeric
 * part of an array, or a part that is not there yet (mongo src/mongo/db/update/path_support.h).
 * Every operator refuses a path that is not viable (PathNotViable, code 28): those that write
 * cannot create the field ("Cannot create field 'x' in element {a: 1}"), and $pull, $pullAll,
 * $pop and $rename's source refuse it although they create nothing (update_leaf_node.cpp,
 * rename_node.cpp). Only $unset leaves such a path alone (allowNonViablePath), and $setOnInsert
 * does nothing at all unless it inserts. mingo instead does nothing, silently ($rename even
 * drops its source), so the rule is checked here, once, before either updater runs.
 */
import type { Update } from '../types.js';
import { InvalidUpdateError } from './errors.js';
import { splitPath } from './paths.js';

/** The first part that cannot be walked, and the value at the part before it. */
interface Blocked {
  at: number;
  holder: unknown;
}

/** Operators that create nothing but still refuse a path they cannot walk. */
const TRAVERSING = new Set(['$pull', '$pullAll', '$pop', '$rename']);

/** Refuse `operands` (an update's operators) where MongoDB refuses them on `doc`. */
export function refuseNonViablePaths(
  doc: Record<string, unknown>,
  operands: Update,
  inserting: boolean,
): void {
  for (const op of Object.keys(operands)) {
    if (op === '$unset' || (op === '$setOnInsert' && !inserting)) continue;
    const fields = operands[op] as Record<string, unknown>;
    for (const path of Object.keys(fields)) {
      // a top-level field sits in the document itself: always viable
      if (op !== '$rename' && path.indexOf('.') === -1) continue;
      const segments = splitPath(path);
      const walked = walk(doc, segments);
      if (walked === 'missing') continue;
      if (walked !== 'found') throw notViable(op, path, segments, walked);
      const to = fields[path];
      // $rename writes its source's value at the destination: only then is that path walked
      if (op === '$rename' && typeof to === 'string') {
        const target = splitPath(to);
        const blocked = walk(doc, target);
        if (typeof blocked === 'object') throw notViable('$set', to, target, blocked);
      }
    }
  }
}

/** MongoDB's message, for the native updater meeting a value its own writes put in the path. */
export function cannotCreate(segments: readonly string[], blocked: Blocked): InvalidUpdateError {
  const { at, holder } = blocked;
  return new InvalidUpdateError(
    `cannot create field '${segments[at]}' in element {${segments[at - 1]}: ${JSON.stringify(holder)}}`,
  );
}

function notViable(
  op: string,
  path: string,
  segments: readonly string[],
  blocked: Blocked,
): InvalidUpdateError {
  if (!TRAVERSING.has(op)) return cannotCreate(segments, blocked);
  const { at, holder } = blocked;
  return new InvalidUpdateError(
    `${op}: cannot use the part (${segments[at]}) of (${path}) to traverse the element ({${segments[at - 1]}: ${JSON.stringify(holder)}})`,
  );
}

/**
 * Walk `segments` from `doc`: 'found' when the whole path is there, 'missing' when a part is not
 * (it would be created) or is positional ($, $[], $[id]: mingo resolves those against arrays),
 * or where it is blocked by a number, a string, a boolean, a null or an array read by name.
 */
function walk(doc: unknown, segments: readonly string[]): 'found' | 'missing' | Blocked {
  let holder = doc;
  for (let at = 0; at < segments.length; at++) {
    const part = segments[at]!;
    if (part === '$' || (part.startsWith('$[') && part.endsWith(']'))) return 'missing';
    let next: unknown;
    if (Array.isArray(holder)) {
      if (!/^\d+$/.test(part)) return { at, holder };
      next = holder[Number(part)];
    } else if (holder !== null && typeof holder === 'object') {
      next = Object.hasOwn(holder, part) ? (holder as Record<string, unknown>)[part] : undefined;
    } else {
      return { at, holder };
    }
    if (next === undefined) return 'missing';
    holder = next;
  }
  return 'found';
}
