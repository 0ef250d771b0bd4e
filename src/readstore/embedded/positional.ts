/**
 * The positional `$` of an update path (`'items.$.done'`): the index of the array item the query
 * matched, found on each document before the update is applied, so both updaters see a plain
 * numeric path. mingo's own `$` reads only a query key that names the same array.
 *
 * MongoDB (src/mongo/db/update/update_object_node.cpp, UpdateObjectNode::apply) refuses a `$`
 * with nothing to stand for: "The positional operator did not find the match needed from the
 * query." (BadValue, code 2). What it stands for is the query's elemMatchKey
 * (src/mongo/db/matcher/expression_path.cpp): each leaf of the query's top-level AND that
 * matched through an item of the first array on its path records that item's index, the last
 * one recorded wins. A leaf matched by the array as a whole ({tags: ['ui', 'bug']}, $size), a
 * negation ($ne, $nin, $not, $exists: false) and the branches of $or and $nor record nothing. An upsert that
 * inserts has no matched item, so a `$` refuses it.
 */
import { Query } from 'mingo';
import type { Filter, Update } from '../types.js';
import { InvalidUpdateError } from './errors.js';
import { definedFilter } from './filter-shape.js';
import { isOperatorDocument, isPlainObject } from './objects.js';
import { splitPath } from './paths.js';

const NO_MATCH = 'The positional operator did not find the match needed from the query.';

/** Operators that record no item: negations, and those that test the array as a whole. */
const UNRECORDED = new Set(['$ne', '$nin', '$not', '$size', '$options']);

/** Whether any path of `update` holds a `$` part. */
export function hasPositional(update: Update): boolean {
  for (const op of Object.keys(update)) {
    for (const path of Object.keys(update[op] as object)) {
      if (path.indexOf('$') !== -1 && splitPath(path).includes('$')) return true;
    }
  }
  return false;
}

/** An upsert inserting: nothing was matched, so a `$` is refused. */
export function refusePositionalInsert(update: Update): void {
  if (hasPositional(update)) throw new InvalidUpdateError(NO_MATCH);
}

/** `update` with each `$` part replaced by the index the query matched in `doc`. */
export function resolvePositional(update: Update, filter: Filter, doc: object): Update {
  if (!hasPositional(update)) return update;
  const index = matchedIndex(definedFilter(filter), doc);
  if (index === undefined) throw new InvalidUpdateError(NO_MATCH);
  const resolved: Update = {};
  const paths: { parts: readonly string[]; positional: boolean }[] = [];
  for (const op of Object.keys(update)) {
    const fields = update[op] as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const path of Object.keys(fields)) {
      const given = splitPath(path);
      const parts = given.map((part) => (part === '$' ? String(index) : part));
      refuseMerged(paths, parts, given.includes('$'));
      out[parts.join('.')] = fields[path];
    }
    resolved[op] = out;
  }
  return resolved;
}

/**
 * MongoDB merges the `$` path with the one naming the same item, and refuses a merge of two
 * writes to one place or of a write around another: "Update created a conflict at 'links.1'"
 * (ConflictingUpdateOperators, code 40; update_node.cpp createUpdateNodeByMerging). Paths without
 * `$` were held to that when the update was parsed (update-shape.ts).
 */
function refuseMerged(
  taken: { parts: readonly string[]; positional: boolean }[],
  parts: readonly string[],
  positional: boolean,
): void {
  for (const other of taken) {
    if (!positional && !other.positional) continue;
    const length = Math.min(parts.length, other.parts.length);
    let shared = 0;
    while (shared < length && parts[shared] === other.parts[shared]) shared++;
    if (shared === length) {
      const at = parts.slice(0, shared).join('.');
      throw new InvalidUpdateError(`Update created a conflict at '${at}'`);
    }
  }
  taken.push({ parts, positional });
}

/** The query's elemMatchKey in `doc`: the item index the last recording leaf matched. */
export function matchedIndex(filter: Filter, doc: object): number | undefined {
  let found: number | undefined;
  for (const key of Object.keys(filter)) {
    const operand = filter[key];
    let index: number | undefined;
    if (key === '$and' && Array.isArray(operand)) {
      for (const branch of operand) {
        const inBranch = matchedIndex(branch as Filter, doc);
        if (inBranch !== undefined) index = inBranch;
      }
    } else if (key.charCodeAt(0) !== 36 /* $ */) {
      index = fieldIndex(key, operand, doc);
    }
    if (index !== undefined) found = index;
  }
  return found;
}

/** A field's condition is one leaf per operator ({$gt: 1, $lt: 5} is two), $all one per item. */
function fieldIndex(path: string, condition: unknown, doc: object): number | undefined {
  if (condition instanceof RegExp) return leafIndex(path, { $regex: condition }, doc);
  if (!isOperatorDocument(condition)) return leafIndex(path, { $eq: condition }, doc);
  let found: number | undefined;
  for (const op of Object.keys(condition)) {
    const arg = condition[op];
    if (UNRECORDED.has(op) || (op === '$exists' && !arg)) continue;
    const leaves =
      op === '$all' && Array.isArray(arg)
        ? arg.map((item) => (isOperatorDocument(item) ? item : { $eq: item }))
        : [op === '$regex' ? regexLeaf(condition) : { [op]: arg }];
    for (const leaf of leaves) {
      const index = leafIndex(path, leaf, doc);
      if (index !== undefined) found = index;
    }
  }
  return found;
}

function regexLeaf(condition: Record<string, unknown>): Record<string, unknown> {
  const { $regex, $options } = condition;
  return $options === undefined ? { $regex } : { $regex, $options };
}

/**
 * The first item of the first array on `path` through which `leaf` matches: the path ends at
 * the array (each item is tested as the value) or runs on into its items. A number part after
 * an array names its item, as in MongoDB, and records nothing.
 */
function leafIndex(path: string, leaf: Record<string, unknown>, doc: object): number | undefined {
  const segments = splitPath(path);
  let holder: unknown = doc;
  for (let at = 0; at <= segments.length; at++) {
    if (Array.isArray(holder)) {
      const part = segments[at];
      if (part !== undefined && /^\d+$/.test(part)) {
        holder = holder[Number(part)];
        continue;
      }
      const rest = segments.slice(at).join('.');
      const query = new Query(rest === '' ? { v: leaf } : { [rest]: leaf });
      // $elemMatch tests an array: each item is offered as the array of that one item
      const wrap = rest === '' && Object.hasOwn(leaf, '$elemMatch');
      const index = holder.findIndex((item) =>
        rest !== ''
          ? isPlainObject(item) && query.test(item)
          : query.test({ v: wrap ? [item] : item }),
      );
      return index === -1 ? undefined : index;
    }
    if (at === segments.length || !isPlainObject(holder)) return undefined;
    const part = segments[at]!;
    holder = Object.hasOwn(holder, part) ? holder[part] : undefined;
  }
  return undefined;
}
