/**
 * Filter evaluation. mingo is the reference semantics, but compiling a mingo Query costs ~25 µs,
 * which projectors would pay on every event. So the common subset (equality, $ne, $in, $nin,
 * range operators on numbers/strings, $exists, $and/$or/$nor) is compiled to plain closures that
 * give exactly mingo's answer on non-array values (checked by a property test against mingo).
 * Anything else — other operators, literal objects/arrays, array values in a document — goes
 * to mingo, compiled once per filter: at once when the filter itself needs it (so an operator
 * mingo does not know is refused even if no document is looked at), lazily when only a
 * document's arrays do.
 */
import { Query } from 'mingo';
import type { Doc, Filter } from '../types.js';
import { InvalidFilterError } from './errors.js';
import { BRANCHES, getPath, splitPath } from './paths.js';

/** 1 = matches, 0 = does not, 2 = this document needs mingo. */
type Verdict = 0 | 1 | 2;
type Check = (doc: Doc) => Verdict;
type Primitive = string | number | boolean | null;

export type Matcher = (doc: Doc) => boolean;

export function compileFilter(filter: Filter, flat?: readonly string[] | null): Matcher {
  if (isEmpty(filter)) return matchAll;
  const keys = flat === undefined ? flatEqualityKeys(filter) : flat;
  if (keys !== null) return flatMatcher(filter, keys);
  // No named closures here: under tsx each one costs a defineProperty (keepNames) per query.
  const check = compileAnd(filter);
  if (check === null) {
    // Compiled now, not when a document first reaches it: MongoDB refuses an operator it does
    // not know when it parses the filter, whether or not anything would be matched.
    const mingo = mingoQuery(filter);
    return (doc) => mingo.test(doc);
  }
  // Every operator is one compileAnd knows: mingo is needed only for what a document holds.
  let mingo: Query | undefined;
  return (doc) => {
    const verdict = check(doc);
    if (verdict !== 2) return verdict === 1;
    mingo ??= mingoQuery(filter);
    return mingo.test(doc);
  };
}

/** mingo's Query; a filter mingo refuses (an unknown operator, ...) is an InvalidFilterError. */
export function mingoQuery(filter: Filter): Query {
  try {
    return new Query(filter);
  } catch (error) {
    throw new InvalidFilterError(error instanceof Error ? error.message : String(error));
  }
}

function matchAll(): boolean {
  return true;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The keys of a filter made only of top-level equalities on primitives (`{hash}`,
 * `{slug, userId, active: true}`, `{_id}`) — what nearly every query on the request path is —
 * or null. Such a filter is matched without compiling a closure per field.
 */
export function flatEqualityKeys(filter: Filter): string[] | null {
  const keys = Object.keys(filter);
  if (keys.length === 0) return null;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key.charCodeAt(0) === 36 /* $ */ || key.indexOf('.') !== -1) return null;
    if (!isPrimitive(filter[key])) return null;
  }
  return keys;
}

/** Same answers as compileAnd over equalities: an array value sends the document to mingo. */
function flatMatcher(filter: Filter, keys: readonly string[]): Matcher {
  let mingo: Query | undefined;
  return (doc) => {
    let needsMingo = false;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const value = hasOwn.call(doc, key) ? doc[key] : undefined;
      if (Array.isArray(value)) {
        needsMingo = true;
        continue;
      }
      const operand = filter[key];
      if (operand === null ? value !== null && value !== undefined : value !== operand) {
        return false;
      }
    }
    if (!needsMingo) return true;
    mingo ??= mingoQuery(filter);
    return mingo.test(doc);
  };
}

export function isPrimitive(value: unknown): value is Primitive {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && !Number.isNaN(value))
  );
}

function isEmpty(object: object): boolean {
  for (const _ in object) return false;
  return true;
}

function compileAnd(filter: Filter): Check | null {
  const checks: Check[] = [];
  for (const key of Object.keys(filter)) {
    const operand = filter[key];
    let check: Check | null;
    if (key === '$and' || key === '$or' || key === '$nor') {
      check = compileLogical(key, operand);
    } else if (key.startsWith('$')) {
      return null;
    } else {
      check = compileField(key, operand);
    }
    if (check === null) return null;
    checks.push(check);
  }
  if (checks.length === 1) return checks[0]!;
  return (doc) => {
    let verdict: Verdict = 1;
    for (const check of checks) {
      const v = check(doc);
      if (v === 0) return 0;
      if (v === 2) verdict = 2;
    }
    return verdict;
  };
}

function compileLogical(op: '$and' | '$or' | '$nor', operand: unknown): Check | null {
  if (!Array.isArray(operand) || operand.length === 0) return null;
  const branches: Check[] = [];
  for (const branch of operand) {
    if (branch === null || typeof branch !== 'object' || Array.isArray(branch)) return null;
    const check = isEmpty(branch) ? () => 1 as const : compileAnd(branch as Filter);
    if (check === null) return null;
    branches.push(check);
  }
  if (op === '$and') {
    return (doc) => {
      let verdict: Verdict = 1;
      for (const check of branches) {
        const v = check(doc);
        if (v === 0) return 0;
        if (v === 2) verdict = 2;
      }
      return verdict;
    };
  }
  const any = (doc: Doc): Verdict => {
    let verdict: Verdict = 0;
    for (const check of branches) {
      const v = check(doc);
      if (v === 1) return 1;
      if (v === 2) verdict = 2;
    }
    return verdict;
  };
  if (op === '$or') return any;
  return (doc) => {
    const v = any(doc);
    return v === 2 ? 2 : v === 1 ? 0 : 1;
  };
}

type ValueTest = (value: unknown) => boolean;

function compileField(path: string, operand: unknown): Check | null {
  const test = compileCondition(operand);
  if (test === null) return null;
  const segments = splitPath(path);
  if (segments.length === 1) {
    const key = path;
    return (doc) => {
      const value = Object.hasOwn(doc, key) ? doc[key] : undefined;
      if (Array.isArray(value)) return 2;
      return test(value) ? 1 : 0;
    };
  }
  return (doc) => {
    const value = getPath(doc, segments);
    if (value === BRANCHES || Array.isArray(value)) return 2;
    return test(value) ? 1 : 0;
  };
}

function compileCondition(operand: unknown): ValueTest | null {
  if (isPrimitive(operand)) return equals(operand);
  if (operand === null || typeof operand !== 'object' || Array.isArray(operand)) return null;
  const tests: ValueTest[] = [];
  const entries = Object.entries(operand);
  if (entries.length === 0) return null;
  for (const [op, arg] of entries) {
    const test = compileOperator(op, arg);
    if (test === null) return null;
    tests.push(test);
  }
  if (tests.length === 1) return tests[0]!;
  return (value) => tests.every((test) => test(value));
}

function compileOperator(op: string, arg: unknown): ValueTest | null {
  switch (op) {
    case '$eq':
      return isPrimitive(arg) ? equals(arg) : null;
    case '$ne': {
      if (!isPrimitive(arg)) return null;
      const eq = equals(arg);
      return (value) => !eq(value);
    }
    case '$in':
    case '$nin': {
      if (!Array.isArray(arg) || !arg.every(isPrimitive)) return null;
      const set = new Set<unknown>(arg);
      const hasNull = set.has(null);
      return op === '$in'
        ? (value) => (value === null || value === undefined ? hasNull : set.has(value))
        : (value) => !(value === null || value === undefined ? hasNull : set.has(value));
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      if (typeof arg !== 'number' && typeof arg !== 'string') return null;
      if (typeof arg === 'number' && Number.isNaN(arg)) return null;
      const type = typeof arg;
      switch (op) {
        case '$gt':
          return (value) => typeof value === type && (value as number) > (arg as number);
        case '$gte':
          return (value) => typeof value === type && (value as number) >= (arg as number);
        case '$lt':
          return (value) => typeof value === type && (value as number) < (arg as number);
        case '$lte':
          return (value) => typeof value === type && (value as number) <= (arg as number);
        default: {
          const _exhaustive: never = op;
          return _exhaustive;
        }
      }
    }
    case '$exists': {
      const wanted = Boolean(arg);
      return (value) => (value !== undefined) === wanted;
    }
    default:
      return null;
  }
}

function equals(operand: Primitive): ValueTest {
  if (operand === null) return (value) => value === null || value === undefined;
  return (value) => value === operand;
}
