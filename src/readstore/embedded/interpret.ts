/**
 * Filter evaluation without compiling: for a filter that will meet one or two documents (pinned
 * by `_id`, as every projector's guarded update is), building matcher.ts's closures costs more
 * than walking the filter once per document. Same subset and same answers as matcher.ts (a
 * property test holds both to mingo): the filter's shape is checked first, so an unsupported
 * filter goes to compileFilter (and mingo) whatever the document, exactly as before.
 */
import type { Query } from 'mingo';
import type { Doc, Filter } from '../types.js';
import { isPrimitive, type Matcher, mingoQuery } from './matcher.js';
import { isPlainObject } from './objects.js';
import { BRANCHES, getPath, splitPath } from './paths.js';

/** 1 = matches, 0 = does not, 2 = this document needs mingo. */
type Verdict = 0 | 1 | 2;

const hasOwn = Object.prototype.hasOwnProperty;

/** A matcher walking `filter` per document, or null when matcher.ts would not compile it. */
export function interpretFilter(filter: Filter): Matcher | null {
  if (!supportedAnd(filter)) return null;
  let mingo: Query | undefined;
  return (doc) => {
    const verdict = evalAnd(filter, doc);
    if (verdict !== 2) return verdict === 1;
    mingo ??= mingoQuery(filter);
    return mingo.test(doc);
  };
}

function supportedAnd(filter: Filter): boolean {
  for (const key of Object.keys(filter)) {
    const operand = filter[key];
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(operand) || operand.length === 0) return false;
      for (const branch of operand) {
        if (!isPlainObject(branch) || !supportedAnd(branch as Filter)) return false;
      }
    } else if (key.startsWith('$') || !supportedCondition(operand)) {
      return false;
    }
  }
  return true;
}

/** A primitive, or operators this file knows; a Date, a RegExp or a literal document is mingo's. */
function supportedCondition(operand: unknown): boolean {
  if (isPrimitive(operand)) return true;
  if (!isPlainObject(operand)) return false;
  let any = false;
  for (const op of Object.keys(operand)) {
    any = true;
    if (!supportedOperator(op, operand[op])) return false;
  }
  return any;
}

function supportedOperator(op: string, arg: unknown): boolean {
  switch (op) {
    case '$eq':
    case '$ne':
      return isPrimitive(arg);
    case '$in':
    case '$nin':
      return Array.isArray(arg) && arg.every(isPrimitive);
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return typeof arg === 'string' || (typeof arg === 'number' && !Number.isNaN(arg));
    case '$exists':
      return true;
    default:
      return false;
  }
}

/** As compileAnd: any 0 decides; otherwise a 2 anywhere sends the document to mingo. */
function evalAnd(filter: Filter, doc: Doc): Verdict {
  let verdict: Verdict = 1;
  for (const key of Object.keys(filter)) {
    const operand = filter[key];
    let v: Verdict;
    if (key === '$and') v = evalAll(operand as Filter[], doc);
    else if (key === '$or') v = evalAny(operand as Filter[], doc);
    else if (key === '$nor') {
      const any = evalAny(operand as Filter[], doc);
      v = any === 2 ? 2 : any === 1 ? 0 : 1;
    } else v = evalField(key, operand, doc);
    if (v === 0) return 0;
    if (v === 2) verdict = 2;
  }
  return verdict;
}

function evalAll(branches: Filter[], doc: Doc): Verdict {
  let verdict: Verdict = 1;
  for (const branch of branches) {
    const v = evalAnd(branch, doc);
    if (v === 0) return 0;
    if (v === 2) verdict = 2;
  }
  return verdict;
}

function evalAny(branches: Filter[], doc: Doc): Verdict {
  let verdict: Verdict = 0;
  for (const branch of branches) {
    const v = evalAnd(branch, doc);
    if (v === 1) return 1;
    if (v === 2) verdict = 2;
  }
  return verdict;
}

function evalField(path: string, operand: unknown, doc: Doc): Verdict {
  let value: unknown;
  if (path.indexOf('.') === -1) {
    value = hasOwn.call(doc, path) ? doc[path] : undefined;
  } else {
    value = getPath(doc, splitPath(path));
    if (value === BRANCHES) return 2;
  }
  if (Array.isArray(value)) return 2;
  return condition(operand, value) ? 1 : 0;
}

function condition(operand: unknown, value: unknown): boolean {
  if (!isPlainObject(operand)) return equals(operand, value);
  for (const op of Object.keys(operand)) {
    if (!operator(op, operand[op], value)) return false;
  }
  return true;
}

function equals(operand: unknown, value: unknown): boolean {
  return operand === null ? value === null || value === undefined : value === operand;
}

function operator(op: string, arg: unknown, value: unknown): boolean {
  switch (op) {
    case '$eq':
      return equals(arg, value);
    case '$ne':
      return !equals(arg, value);
    case '$in':
      return within(arg as unknown[], value);
    case '$nin':
      return !within(arg as unknown[], value);
    case '$gt':
      return typeof value === typeof arg && (value as number) > (arg as number);
    case '$gte':
      return typeof value === typeof arg && (value as number) >= (arg as number);
    case '$lt':
      return typeof value === typeof arg && (value as number) < (arg as number);
    case '$lte':
      return typeof value === typeof arg && (value as number) <= (arg as number);
    case '$exists':
      return (value !== undefined) === Boolean(arg);
    default:
      // unreachable: supportedOperator admitted only the operators above
      return false;
  }
}

function within(list: unknown[], value: unknown): boolean {
  return value === null || value === undefined ? list.includes(null) : list.includes(value);
}
