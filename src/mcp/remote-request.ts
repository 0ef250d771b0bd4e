/**
 * The REST request a remote tool call makes (remote.ts), from the call's arguments and `_meta`,
 * or the refusal of arguments no request can carry, answered as the hosted server answers them.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeIssues } from '../http/validation.js';
import type { CallMeta } from './server.js';
import { errorResult } from './tools.js';

type Query = Record<string, unknown>;

export function queryString(query: Query): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      search.append(name, typeof one === 'object' ? JSON.stringify(one) : String(one));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Path parameters are strings: the hosted server's validation refuses anything else, in these words. */
const PathValues = z.record(z.string(), z.string());

/** `.` and `..`: path segments the URL parser resolves (WHATWG URL). */
const DOT_SEGMENT = /^\.\.?$/;

/**
 * The request path with the call's path parameters in it, or why there is none. A parameter
 * that is not a string is refused as the hosted server refuses it (String() would make `123` or
 * `[id]` an id). A `.` or `..` would be resolved away by fetch's URL parser — encodeURIComponent
 * leaves dots alone — and name another operation: remove_note_tag with id `..` became
 * DELETE /v1/tags/{tagId}, deleting the tag; get_note with id `.` listed the notes. No id the
 * service issues is one, so it is answered as the hosted server answers an unknown id: 404.
 */
export function requestPath(
  template: string,
  params: Record<string, unknown>,
): string | CallToolResult {
  const strings = PathValues.safeParse(params);
  if (!strings.success) {
    return errorResult({ error: describeIssues(strings.error, params, 'path') }, 400);
  }
  const dotted = Object.entries(strings.data).find(([, value]) => DOT_SEGMENT.test(value));
  if (dotted) {
    const [name, value] = dotted;
    return errorResult({ error: `not found: no ${name} is "${value}"` }, 404);
  }
  return template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(strings.data[name] ?? ''),
  );
}

/**
 * The call's `_meta` as the REST request's headers (README: "Per-call `_meta` carries what REST
 * takes in headers"), or the refusal of a value no header can carry: fetch would throw, and that
 * was answered as a service it "cannot reach". The key goes with writes only, which alone read
 * it (the hosted server ignores it on a read too).
 */
export function metaHeaders(meta: CallMeta, method: string): Headers | CallToolResult {
  const sent = [
    ['idempotencyKey', 'Idempotency-Key', method === 'get' ? undefined : meta.idempotencyKey],
    ['ifMatch', 'If-Match', meta.ifMatch],
  ] as const;
  const headers = new Headers();
  for (const [field, header, value] of sent) {
    if (value === undefined) continue;
    try {
      headers.set(header, value);
    } catch {
      const error = `_meta.${field} cannot be sent to the service: it holds a line break, a NUL or a character above U+00FF`;
      return errorResult({ error }, 400);
    }
  }
  return headers;
}
