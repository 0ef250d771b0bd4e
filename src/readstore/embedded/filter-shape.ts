/**
 * A filter as MongoDB's server takes it: as its client sends it (undefined left out), and refused
 * where its parser refuses it before matching anything (mongo
 * src/mongo/db/matcher/expression_parser.cpp, BadValue). mingo would read some of these as
 * matching nothing or everything, and meets others only when a document reaches them (never on
 * an empty collection); the operators mingo does not know are refused by its Query constructor
 * (matcher.ts mingoQuery), the shapes it does accept are refused here.
 */
import type { Filter } from '../types.js';
import { InvalidFilterError } from './errors.js';
import { isOperatorDocument, isPlainObject } from './objects.js';
import { refuseMalformedOperand, refuseUnknownExpressions } from './operand-shape.js';

type Logical = '$and' | '$or' | '$nor';

function isLogical(key: string): key is Logical {
  return key === '$and' || key === '$or' || key === '$nor';
}

/** Operators that stand for a document, not a field: an $elemMatch led by one is a query. */
const PATHLESS = new Set([
  '$and',
  '$or',
  '$nor',
  '$where',
  '$expr',
  '$text',
  '$comment',
  '$jsonSchema',
]);

/**
 * A filter as the MongoDB client sends it (ignoreUndefined, mongodb/client.ts): a field set to
 * undefined is left out, an undefined array item is null. The filter itself when it holds no
 * undefined, which is nearly always; only plain objects and arrays are looked into.
 */
export function definedFilter<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let items: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const defined = value[i] === undefined ? null : definedFilter(value[i]);
      if (defined === value[i]) continue;
      if (items === null) items = value.slice();
      items[i] = defined;
    }
    return (items ?? value) as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const fields = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const key of Object.keys(fields)) {
    const defined = fields[key] === undefined ? undefined : definedFilter(fields[key]);
    if (defined === fields[key] && defined !== undefined) continue;
    if (out === null) out = { ...fields };
    if (defined === undefined) delete out[key];
    else out[key] = defined;
  }
  return (out ?? value) as T;
}

/**
 * Refuse a filter MongoDB's parser refuses: "$and/$or/$nor must be a nonempty array", "$or/$and/$nor
 * entries need to be full objects" — at the top, in their branches and in an $elemMatch that is a
 * query — "unknown operator: $or" on a field (under its $not too), "$in needs an array", and the
 * operands operand-shape.ts refuses ($size, $type, $mod, $regex, $expr's expressions).
 */
export function refuseMalformedFilter(filter: Filter): void {
  for (const key of Object.keys(filter)) {
    const operand = filter[key];
    if (isLogical(key)) refuseMalformedBranches(key, operand);
    else if (key === '$expr') refuseUnknownExpressions(operand);
    else if (key.charCodeAt(0) !== 36 /* $ */) refuseMalformedCondition(operand);
  }
}

function refuseMalformedBranches(key: Logical, branches: unknown): void {
  if (!Array.isArray(branches)) throw new InvalidFilterError(`${key} must be an array`);
  if (branches.length === 0) {
    throw new InvalidFilterError(`${key} must be a nonempty array, as MongoDB requires`);
  }
  for (const branch of branches) {
    if (!isPlainObject(branch)) {
      throw new InvalidFilterError(`${key} entries need to be full objects`);
    }
    refuseMalformedFilter(branch);
  }
}

/** A field's condition: operators when its first key is one (isExpressionDocument), else a value. */
function refuseMalformedCondition(condition: unknown): void {
  if (!isOperatorDocument(condition)) return;
  for (const op of Object.keys(condition)) {
    const arg = condition[op];
    if (isLogical(op)) throw new InvalidFilterError(`unknown operator: ${op}`);
    if ((op === '$in' || op === '$nin') && !Array.isArray(arg)) {
      throw new InvalidFilterError(`${op} needs an array`);
    }
    refuseMalformedOperand(op, arg, condition);
    if (op === '$not') refuseMalformedCondition(arg);
    else if (op === '$elemMatch' && isPlainObject(arg)) {
      // {$elemMatch: {$gt: 1}} tests each item as a value; {$elemMatch: {x: 1}} or
      // {$elemMatch: {$or: [..]}} is a query on each item
      const first = Object.keys(arg)[0];
      if (first !== undefined && first.charCodeAt(0) === 36 && !PATHLESS.has(first)) {
        refuseMalformedCondition(arg);
      } else refuseMalformedFilter(arg);
    }
  }
}
