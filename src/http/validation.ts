/**
 * Request validation helpers: query-string coercion prepared once per operation, and zod issues
 * turned into messages a client can act on ("pageSize must be at most 200").
 */
import type { z } from 'zod';
import { InvalidArgument } from '../../commands/shared/errors.js';
import { cutAt } from '../../commands/shared/text.js';
import type { ObjectSchema } from './operation.js';

type Coercer = (raw: unknown) => unknown;

interface ZodInternals {
  _zod: {
    def: {
      type: string;
      innerType?: z.ZodType;
      in?: z.ZodType;
      element?: z.ZodType;
      shape?: Record<string, z.ZodType>;
    };
  };
}

/** The schema under optional/default/nullable/pipe wrappers, which carry no wire type of their own. */
function baseType(schema: z.ZodType): ZodInternals['_zod']['def'] {
  let def = (schema as unknown as ZodInternals)._zod.def;
  for (let depth = 0; depth < 10; depth++) {
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) break;
    def = (inner as unknown as ZodInternals)._zod.def;
  }
  return def;
}

const NUMERIC = /^-?(?:\d+|\d*\.\d+)(?:[eE][-+]?\d+)?$/;

function coercerFor(schema: z.ZodType): Coercer | undefined {
  const def = baseType(schema);
  switch (def.type) {
    case 'number':
      return (raw) => (typeof raw === 'string' && NUMERIC.test(raw) ? Number(raw) : raw);
    case 'boolean':
      return (raw) => (raw === 'true' ? true : raw === 'false' ? false : raw);
    case 'array': {
      const element = def.element ? coercerFor(def.element) : undefined;
      return (raw) => {
        const list = Array.isArray(raw) ? raw : [raw];
        return element ? list.map(element) : list;
      };
    }
    default:
      return undefined;
  }
}

/**
 * Query strings carry only strings; the schemas say `number`/`boolean` so that OpenAPI shows the
 * real types. This prepares, once, a function converting exactly the keys that need it.
 */
export function queryCoercer(schema: ObjectSchema | undefined) {
  const known = new Set(Object.keys(schema?.shape ?? {}));
  const takes = known.size ? `it takes ${[...known].join(', ')}` : 'it takes none';
  // An unknown parameter is refused, as an unknown field of a body is: ignored, a misspelled
  // filter (`statuss=shipped`) would answer everything, and a pager using another listing's
  // cursor name (`after=`) would start again at page 1 forever. `status[]=new` (a PHP/Rails
  // habit) is not `status=new` either, and is told so.
  const refuseBrackets = (raw: Record<string, unknown>) => {
    for (const key in raw) {
      if (known.has(key)) continue;
      const base = /^([^[\]]+)\[[^\]]*\]/.exec(key)?.[1];
      if (base !== undefined && known.has(base)) {
        throw new InvalidArgument(`${base} must be given as ${base}=…, without brackets`);
      }
      throw new InvalidArgument(`unknown query parameter "${shorter(key)}"; ${takes}`);
    }
  };
  if (!schema) {
    return (raw: Record<string, unknown>) => {
      refuseBrackets(raw);
      return raw;
    };
  }
  const coercers: [string, Coercer][] = [];
  for (const [key, field] of Object.entries(schema.shape)) {
    const coerce = coercerFor(field as z.ZodType);
    if (coerce) coercers.push([key, coerce]);
  }
  if (coercers.length === 0) {
    return (raw: Record<string, unknown>) => {
      refuseBrackets(raw);
      return raw;
    };
  }
  return (raw: Record<string, unknown>) => {
    refuseBrackets(raw);
    const out: Record<string, unknown> = { ...raw };
    for (const [key, coerce] of coercers) {
      if (out[key] !== undefined) out[key] = coerce(out[key]);
    }
    return out;
  };
}

type Where = 'path' | 'query' | 'body';

function pathName(path: readonly PropertyKey[]): string {
  let name = '';
  for (const part of path) {
    if (typeof part === 'number') name += `[${part}]`;
    else name += name ? `.${String(part)}` : String(part);
  }
  return name;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') {
    // `1e400` parses as Infinity, `1.5` is a number where an integer was expected
    if (!Number.isFinite(value)) return 'a number out of range';
    if (!Number.isInteger(value)) return `a number with a fraction (${value})`;
  }
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function describeType(expected: string): string {
  switch (expected) {
    case 'int':
      return 'an integer';
    case 'object':
    case 'array':
      return `an ${expected}`;
    case 'boolean':
      return 'a boolean (true or false)';
    default:
      return `a ${expected}`;
  }
}

type Issue = z.core.$ZodIssue;

/** What a field is called in a message: a form for people names it by its label */
export type FieldLabels = Readonly<Record<string, string>>;

export interface DescribeOptions {
  labels?: FieldLabels;
  /** the schema the input was checked with: an unknown field's refusal lists what it takes */
  schema?: z.ZodType;
}

/** The fields of the object the schema holds at `path`; undefined where that is no plain object. */
function fieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] | undefined {
  let def = baseType(schema);
  for (const part of path) {
    const next = typeof part === 'number' ? def.element : def.shape?.[String(part)];
    if (!next) return undefined;
    def = baseType(next);
  }
  return def.type === 'object' && def.shape ? Object.keys(def.shape) : undefined;
}

function describeIssue(
  issue: Issue,
  input: unknown,
  where: Where,
  options: DescribeOptions,
): string {
  const { labels } = options;
  const name = pathName(issue.path);
  const subject = labels?.[name] ?? (name || (where === 'body' ? 'request body' : where));
  switch (issue.code) {
    case 'invalid_type': {
      const actual = valueAt(input, issue.path);
      if (where === 'query' && Array.isArray(actual)) return `${subject} must be given only once`;
      if (actual === undefined) return `${subject} is required`;
      if (!name && where === 'body' && issue.expected === 'object') {
        return 'request body must be a JSON object';
      }
      return `${subject} must be ${describeType(issue.expected)}, not ${kindOf(actual)}`;
    }
    case 'too_big': {
      const bound = issue.inclusive ? 'at most' : 'less than';
      const max = String(issue.maximum);
      if (issue.origin === 'string') return `${subject} must be ${bound} ${max} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') {
        return `${subject} must have ${bound} ${max} entries`;
      }
      return `${subject} must be ${bound} ${max}`;
    }
    case 'too_small': {
      const bound = issue.inclusive ? 'at least' : 'more than';
      const min = String(issue.minimum);
      if (issue.origin === 'string') {
        return issue.minimum === 1 && issue.inclusive
          ? `${subject} must not be empty`
          : `${subject} must be ${bound} ${min} characters long`;
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return `${subject} must have ${bound} ${min} entries`;
      }
      return `${subject} must be ${bound} ${min}`;
    }
    case 'invalid_value': {
      if (where === 'query' && Array.isArray(valueAt(input, issue.path))) {
        return `${subject} must be given only once`;
      }
      const values = issue.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
      return values.length === 1
        ? `${subject} must be ${values[0]}`
        : `${subject} must be one of: ${values.join(', ')}`;
    }
    case 'invalid_format':
      return issue.format === 'regex' && issue.pattern
        ? `${subject} has an invalid format (must match ${issue.pattern})`
        : `${subject} must be a valid ${issue.format}`;
    case 'unrecognized_keys': {
      const keys = namedKeys(issue.keys);
      const plural = issue.keys.length > 1 ? 's' : '';
      const scope = name ? ` in ${name}` : where === 'body' ? '' : ` in ${where}`;
      // named like an unknown query parameter's refusal: what the operation takes instead
      const fields = options.schema && fieldsAt(options.schema, issue.path);
      const rule = !fields
        ? 'no other fields are allowed'
        : `${name || 'it'} takes ${fields.length ? fields.join(', ') : 'none'}`;
      return `unknown field${plural} ${keys}${scope}; ${rule}`;
    }
    // No request schema has a union or a multipleOf (unions are in answers only: SyncPage,
    // WebhookMessage), so `invalid_union` and `not_multiple_of` do not arise; `custom` (a
    // refine) and any code a future schema brings say zod's message under the field's name.
    default:
      return name ? `${name}: ${issue.message}` : issue.message;
  }
}

/**
 * Of two bounds on one field, the one that binds: an integer's own limit (2^53 − 1) beside the
 * schema's max said "pageSize must be at most 9007199254740991; pageSize must be at most 200".
 */
function tighter(a: Issue, b: Issue): Issue {
  if (a.code === 'too_big' && b.code === 'too_big') {
    return Number(b.maximum) < Number(a.maximum) ? b : a;
  }
  if (a.code === 'too_small' && b.code === 'too_small') {
    return Number(b.minimum) > Number(a.minimum) ? b : a;
  }
  return a;
}

/** At most three distinct messages, so one bad request does not produce a novel. */
export function describeIssues(
  error: z.ZodError,
  input: unknown,
  where: Where,
  options: DescribeOptions = {},
): string {
  const byField = new Map<string, Issue>();
  for (const issue of error.issues) {
    const key = `${pathName(issue.path)}\0${issue.code}`;
    const known = byField.get(key);
    byField.set(key, known ? tighter(known, issue) : issue);
  }
  const messages = new Set<string>();
  for (const issue of byField.values()) {
    messages.add(describeIssue(issue, input, where, options));
    if (messages.size === 3) break;
  }
  return [...messages].join('; ');
}

/** At most this many unknown fields are named in a refusal, each cut to this many characters. */
const NAMED_KEYS = 10;
const NAMED_KEY_CHARS = 64;

/** Unknown keys as a refusal names them: not echoed — 60,000 made-up keys must not come back as a 700 KB error. */
export function namedKeys(keys: readonly string[]): string {
  const shown = keys.slice(0, NAMED_KEYS).map((k) => `"${shorter(k)}"`);
  const more = keys.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

function shorter(key: string): string {
  const kept = cutAt(key, NAMED_KEY_CHARS);
  return kept === key ? key : `${kept}…`;
}
