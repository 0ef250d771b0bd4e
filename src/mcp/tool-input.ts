/**
 * One tool input from an operation's three inputs. The path parameters, the query and the
 * body's fields become the properties of one object, so a call reads
 * `{"slug": "acme-co", "key": "APP", "itemKey": "APP-7", "body": "Thanks!"}`.
 *
 * Name clashes: a path parameter and a query parameter of the same name make the operation
 * unusable as a tool (an error when the tools are generated, so a test catches it). When a body
 * field has the name of a path or query parameter — or the body is not a plain object — the body
 * is not spread: it is one argument, `body`, holding the whole request body, and the parameters
 * stay flat. Which of the two an operation uses is visible in its inputSchema.
 *
 * Splitting a call back: parameters by name; with a spread body the body's fields go to the
 * body, whose own schema then decides exactly as over REST. An argument that is none of these is
 * refused here, naming every argument the tool takes (REST's message would name only the body's
 * fields) — unless the body is an open object, which then takes (or drops) it as over REST.
 * An array given for a query parameter that takes one value is refused here too: over REST an
 * array is the parameter repeated, and REST's "given only once" means nothing to a tool call.
 */
import { InvalidArgument } from '../../commands/shared/errors.js';
import type { RawInput } from '../http/registry.js';
import { namedKeys } from '../http/validation.js';
import { isPlainObject, propertiesOf, requiredOf, rewrap, unwrap } from './json-schema.js';
import type { JsonSchema, ToolSource } from './tool-source.js';

/**
 * Names no tool argument may have: a JavaScript object's machinery. JSON keeps `__proto__` as a
 * key, but the SDK's parse of a `tools/call` drops it, so the call ran without it and said nothing;
 * `constructor` and `prototype` read an object's inherited members where a lookup misses. A call
 * naming one is refused as malformed (message-check.ts), and no operation may take one (below).
 */
export const RESERVED_ARGUMENT_NAMES: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
]);

export class ToolGenerationError extends Error {
  override readonly name = 'ToolGenerationError';
}

export interface ToolInput {
  schema: JsonSchema;
  /** the body is one `body` argument rather than spread (see above) */
  nestedBody: boolean;
  split(args: Record<string, unknown> | undefined): RawInput;
}

export function toolInput(source: ToolSource): ToolInput {
  const params = source.params ? unwrap(source.params) : undefined;
  const query = source.query ? unwrap(source.query) : undefined;
  const body = source.body ? unwrap(source.body) : undefined;
  const paramNames = new Set(Object.keys(propertiesOf(params?.root)));
  const queryNames = new Set(Object.keys(propertiesOf(query?.root)));
  for (const name of queryNames) {
    if (paramNames.has(name)) {
      throw new ToolGenerationError(
        `${source.id}: "${name}" is both a path and a query parameter; it cannot be one tool argument`,
      );
    }
  }
  const taken = new Set([...paramNames, ...queryNames]);
  const bodyFields = body && isPlainObject(body.root) ? Object.keys(propertiesOf(body.root)) : [];
  for (const name of [...taken, ...bodyFields]) {
    if (RESERVED_ARGUMENT_NAMES.has(name)) {
      throw new ToolGenerationError(
        `${source.id}: "${name}" cannot be a tool argument (calls naming it are refused)`,
      );
    }
  }
  const nestedBody =
    body !== undefined && (!isPlainObject(body.root) || bodyFields.some((f) => taken.has(f)));
  if (nestedBody && taken.has('body')) {
    throw new ToolGenerationError(
      `${source.id}: a parameter named "body" leaves no argument name for the request body`,
    );
  }

  const defs = { ...params?.defs, ...query?.defs, ...body?.defs };
  const properties: Record<string, JsonSchema> = {
    ...propertiesOf(params?.root),
    ...propertiesOf(query?.root),
  };
  const required = [...requiredOf(params?.root), ...requiredOf(query?.root)];
  let additionalProperties: unknown = false;
  if (body && nestedBody) {
    properties.body = body.root;
    if (source.bodyRequired) required.push('body');
  } else if (body) {
    Object.assign(properties, propertiesOf(body.root));
    if (source.bodyRequired) required.push(...requiredOf(body.root));
    additionalProperties = body.root.additionalProperties;
  }
  const schema = rewrap(
    {
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      ...(additionalProperties !== undefined ? { additionalProperties } : {}),
    },
    defs,
  );

  // a query parameter that takes one value: over REST an array is the parameter repeated (and
  // REST says "given only once"); a tool argument is typed, so its array is refused as such
  const queryProperties = propertiesOf(query?.root);
  const singleValued = new Set(
    [...queryNames].filter((name) => !takesArray(queryProperties[name]!, query?.defs ?? {})),
  );
  const bodyTakes = new Set(bodyFields);
  const spreadTakes = (name: string) =>
    body !== undefined && !nestedBody && (additionalProperties !== false || bodyTakes.has(name));

  return {
    schema,
    nestedBody,
    split(args) {
      const raw: RawInput = { params: {}, query: {}, body: undefined };
      const spread: Record<string, unknown> = {};
      let spreadGiven = false;
      const unknown: string[] = [];
      const arrays: string[] = [];
      for (const [name, value] of Object.entries(args ?? {})) {
        if (paramNames.has(name)) raw.params[name] = value;
        else if (queryNames.has(name)) {
          if (Array.isArray(value) && singleValued.has(name)) arrays.push(name);
          raw.query[name] = value;
        } else if (body && nestedBody && name === 'body') raw.body = value;
        else if (spreadTakes(name)) {
          spread[name] = value;
          spreadGiven = true;
        } else unknown.push(name);
      }
      if (unknown.length) {
        const known = [...taken, ...(nestedBody ? ['body'] : body ? bodyFields : [])];
        throw new InvalidArgument(
          `unknown argument${unknown.length > 1 ? 's' : ''} ${namedKeys(unknown)}; ${source.id} takes ${known.length ? known.join(', ') : 'no arguments'}`,
        );
      }
      // a path parameter names the resource: without one (or with "") there is nothing to ask
      // for, on the hosted server and the local one alike
      const missing = [...paramNames].filter(
        (name) => raw.params[name] === undefined || raw.params[name] === '',
      );
      if (missing.length) {
        const are = missing.length > 1 ? 'are' : 'is';
        throw new InvalidArgument(`${listed(missing)} ${are} required`);
      }
      if (arrays.length) {
        throw new InvalidArgument(
          arrays.map((name) => `${name} must be one value, not an array`).join('; '),
        );
      }
      if (body && !nestedBody && (spreadGiven || source.bodyRequired)) raw.body = spread;
      return raw;
    },
  };
}

/** `a`, `a and b`, `a, b and c` */
function listed(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * Whether a parameter's schema admits an array; one that says nothing of its type (what zod
 * cannot express is left open) admits anything. A `$ref` to a definition is followed.
 */
function takesArray(schema: JsonSchema, defs: Record<string, JsonSchema>, depth = 0): boolean {
  const name = typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
  const resolved = (name && defs[name]) || schema;
  const variants = [resolved.anyOf, resolved.oneOf].flat().filter(Boolean) as JsonSchema[];
  if (variants.length) return depth < 5 && variants.some((v) => takesArray(v, defs, depth + 1));
  if (resolved.type === undefined) return resolved.enum === undefined && !('const' in resolved);
  return [resolved.type].flat().includes('array');
}
