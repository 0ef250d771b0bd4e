/**
 * REST's words as an MCP caller reads them. Operations are declared once, for REST: their
 * descriptions and their refusals name the headers a REST client sends and reads (Idempotency-Key,
 * If-Match, ETag, WWW-Authenticate, Retry-After). A tool call sends none of them: it passes
 * `_meta.idempotencyKey` and `_meta.ifMatch`, reads `_meta.etag` off a result, and never sees a
 * challenge header. An assistant told to fix its "If-Match header" cannot; told to fix its
 * `_meta.ifMatch`, it can.
 *
 * Both translations live here and run in one place each (tools.ts): `toolDescription` on every
 * generated tool's description and its schemas' (`schemaInMcpTerms`), `errorInMcpTerms` on every
 * error result's message — so the hosted servers (operations from the registry) and the local
 * notes server (operations and errors read over HTTP) say the same, and REST keeps its own words
 * (OpenAPI, REST answers).
 * test/mcp/mcp-terms.e2e.test.ts reads every tool of all three servers for a header's name.
 */

type Rule = readonly [RegExp, string];

/** What a call controls in place of each request header, and what a result carries for ETag. */
const HEADER_FIELDS: readonly Rule[] = [
  [/`?Idempotency-Key`?(?: header)?/g, '`_meta.idempotencyKey`'],
  [/`?If-Match`?(?: header)?/g, '`_meta.ifMatch`'],
  [/`?ETag`?(?: header)?/g, '`_meta.etag`'],
];

/** Whole phrases of REST refusals, before their header names are translated. */
const ERROR_PHRASES: readonly Rule[] = [
  [/send the request without If-Match/g, 'call the tool without _meta.ifMatch'],
  [/this resource carries no ETag/g, "this tool's results carry no _meta.etag"],
  [/send the ETag as read/g, "send a result's _meta.etag as it is"],
  [/used for a different request/g, 'used for a different call (another tool or other arguments)'],
  [/the seconds Retry-After names/g, 'the seconds of _meta.retryAfter'],
  [/send the request again/g, 'call the tool again'],
  [/sending the request again/g, 'calling the tool again'],
];

/** Whole phrases of REST descriptions, before their header names are translated. */
const DESCRIPTION_PHRASES: readonly Rule[] = [
  // the challenge a REST client reads; a tool result has no headers (the refusal itself stays)
  [/ with `WWW-Authenticate: [^`]*`/g, ''],
  [/ with `Retry-After`/g, ' with `_meta.retryAfter` in seconds'],
  [/If-Match: "<revision>"/g, '`_meta.ifMatch` (the `_meta.etag` of an earlier result)'],
  [/An Idempotency-Key/g, 'A `_meta.idempotencyKey`'],
  [/Honours If-Match\./g, 'Honours `_meta.ifMatch` (the `_meta.etag` of an earlier result).'],
  // a success's status is no part of a tool result
  [/answers 204\b/g, 'answers with no content'],
  [/answers 200 with /g, 'answers with '],
];

function apply(text: string, rules: readonly Rule[]): string {
  return rules.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** A tool's description: the operation's, with what a REST client sends and reads said for MCP. */
export function toolDescription(restDescription: string): string {
  return apply(apply(restDescription, DESCRIPTION_PHRASES), HEADER_FIELDS);
}

/** Values, not schemas: a `description` in them is data, left as it is. */
const VALUES = new Set(['default', 'const', 'enum', 'examples', 'example']);

/** A tool's input or output schema, each `description` in it said as `toolDescription` says it. */
export function schemaInMcpTerms<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((s) => schemaInMcpTerms(s)) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === 'description' && typeof value === 'string'
        ? toolDescription(value)
        : VALUES.has(key)
          ? value
          : schemaInMcpTerms(value);
  }
  return out as T;
}

/** An error result's message: the refusal REST answers, naming what the tool call controls. */
export function errorInMcpTerms(restMessage: string): string {
  const phrased = apply(restMessage, ERROR_PHRASES);
  // in a message a field reads plainly, as `_meta.ifMatch` does in the local server's own
  return apply(phrased, HEADER_FIELDS).replace(/`(_meta\.\w+)`/g, '$1');
}
