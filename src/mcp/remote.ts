/**
 * A tool catalog that calls a service's HTTP API: the local notes MCP server is a thin client,
 * so its tools come from the service's OpenAPI document (openapi-source.ts, fetched once, on
 * the first request that needs it) and each call is the REST request, with the access token
 * from the environment. Answers are shaped exactly as the hosted server shapes them (tools.ts):
 * the body as structuredContent and text, an error status as `isError` with the API's envelope.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeIssues } from '../http/validation.js';
import { type OpenApiLike, fromOpenApi } from './openapi-source.js';
import { type QueryCheck, queryCheck } from './query-check.js';
import { type CallMeta, type ToolCatalog, unknownTool } from './server.js';
import { errorResult, type GeneratedTool, generateTools, successResult } from './tools.js';

export interface RemoteToolsOptions {
  /** the service's base URL, e.g. http://127.0.0.1:3001 */
  baseUrl: string;
  /** where the service serves its OpenAPI document, e.g. /docs/json */
  openapiPath: string;
  accessToken: string;
  fetch?: typeof fetch;
  /** how long a call waits for the service's whole answer (default CALL_TIMEOUT_MS) */
  timeoutMs?: number;
  /**
   * What the service must be: an operation its document must offer, and what to call the
   * service and its address in the refusal when it does not (another service's tools would each
   * be refused by that service, 401 for this token, and never say why).
   */
  identity?: { service: string; operationId: string; setting: string };
}

/** The tools read are another service's: said as it is, not as "cannot read the tools". */
class NotTheService extends Error {}

/**
 * A call the service does not answer within this is answered 504: an assistant waiting on a
 * hung service otherwise waits for its host's own timeout, if it has one. A write waits at most
 * PROJECTION_WAIT_MS (10 s by default) for its read models before the service answers 503.
 */
export const CALL_TIMEOUT_MS = 60_000;

type Query = Record<string, unknown>;

function queryString(query: Query): string {
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
function requestPath(template: string, params: Record<string, unknown>): string | CallToolResult {
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
function metaHeaders(meta: CallMeta, method: string): Headers | CallToolResult {
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

export function remoteTools(options: RemoteToolsOptions): ToolCatalog {
  const fetchFn = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  let loading: Promise<Map<string, GeneratedTool>> | undefined;
  const queryChecks = new Map<string, QueryCheck | undefined>();

  function tools(): Promise<Map<string, GeneratedTool>> {
    loading ??= (async () => {
      const res = await fetchFn(`${base}${options.openapiPath}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs ?? CALL_TIMEOUT_MS),
      });
      const { identity } = options;
      const notIt = (why: string) =>
        identity &&
        new NotTheService(
          `the service at ${base} is not a ${identity.service}: ${why}; set ${identity.setting} to the ${identity.service}'s address`,
        );
      // the feedback board serves its document elsewhere: 404 here
      const what = `GET ${options.openapiPath} answered ${res.status}`;
      if (!res.ok) throw (res.status === 404 && notIt(what)) || new Error(what);
      const generated = generateTools(fromOpenApi((await res.json()) as OpenApiLike));
      if (identity && !generated.some((t) => t.tool.name === identity.operationId)) {
        throw notIt(`its ${options.openapiPath} has no ${identity.operationId} operation`);
      }
      return new Map(generated.map((t) => [t.tool.name, t]));
    })().catch((error: unknown) => {
      loading = undefined; // the next request tries again
      if (error instanceof NotTheService) throw error;
      throw new Error(
        `cannot read the tools of the service at ${base}: ${(error as Error).message}`,
      );
    });
    return loading;
  }

  async function call(
    generated: GeneratedTool,
    args: Record<string, unknown> | undefined,
    meta: CallMeta,
  ): Promise<CallToolResult> {
    const { source } = generated;
    let raw: ReturnType<GeneratedTool['split']>;
    try {
      raw = generated.split(args);
    } catch (error) {
      return errorResult({ error: (error as Error).message }, 400);
    }
    const path = requestPath(source.path, raw.params);
    if (typeof path !== 'string') return path;
    if (!queryChecks.has(source.id)) queryChecks.set(source.id, queryCheck(source.query));
    const refused = queryChecks.get(source.id)?.(raw.query);
    if (refused !== undefined) return errorResult({ error: refused }, 400);
    const headers = metaHeaders(meta, source.method);
    if (!(headers instanceof Headers)) return headers;
    headers.set('accept', 'application/json');
    headers.set('authorization', `Bearer ${options.accessToken}`);
    if (raw.body !== undefined) headers.set('content-type', 'application/json');
    const timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
    const signal = AbortSignal.timeout(timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await fetchFn(`${base}${path}${queryString(raw.query)}`, {
        method: source.method.toUpperCase(),
        headers,
        signal,
        ...(raw.body !== undefined ? { body: JSON.stringify(raw.body) } : {}),
      });
      text = await res.text();
    } catch (error) {
      if (signal.aborted) {
        const error = `the service at ${base} did not answer within ${timeoutMs / 1000} s; a write may have been made: read before sending it again, or send it with the same _meta.idempotencyKey`;
        return errorResult({ error }, 504);
      }
      return errorResult(
        { error: `cannot reach the service at ${base}: ${(error as Error).message}` },
        503,
      );
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (res.status >= 400) {
      const envelope =
        body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string'
          ? (body as Record<string, string>)
          : { error: `the service answered ${res.status}` };
      return errorResult(envelope, res.status, res.headers.get('retry-after'));
    }
    const etag = res.headers.get('etag');
    return successResult(generated, {
      status: res.status,
      body,
      ...(etag ? { headers: { etag } } : {}),
    });
  }

  return {
    async list() {
      return [...(await tools()).values()].map((t) => t.tool);
    },
    async call(name, args, meta) {
      // without the tools no call can be sent: answered as a call the service cannot take (503,
      // as when it stops answering later), not as a protocol error; the next call tries again
      let all: Map<string, GeneratedTool>;
      try {
        all = await tools();
      } catch (error) {
        return errorResult({ error: (error as Error).message }, 503);
      }
      const generated = all.get(name);
      if (!generated) throw unknownTool(name);
      return call(generated, args, meta);
    },
  };
}
