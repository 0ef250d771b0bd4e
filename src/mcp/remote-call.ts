/**
 * One remote tool call (remote.ts): the REST request its arguments make (remote-request.ts),
 * sent with the access token and a deadline, and the answer shaped as the hosted server shapes
 * it (tools.ts): the body as structuredContent and text, an error status as `isError` with the
 * API's envelope.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type QueryCheck, queryCheck } from './query-check.js';
import { metaHeaders, queryString, requestPath } from './remote-request.js';
import type { CallMeta } from './server.js';
import { errorResult, type GeneratedTool, successResult } from './tools.js';

/** The service a remote catalog reaches, its options resolved once (remote.ts). */
export interface RemoteService {
  fetch: typeof fetch;
  /** the base URL without a trailing slash */
  base: string;
  accessToken: string;
  /** how long a call, or the reading of the tools, waits for the service's whole answer */
  timeoutMs: number;
  /** added to the error of a call whose token the service refused (remote.ts) */
  tokenRefused?: string;
}

/** Calls of the service's tools; each operation's query check is built once. */
export function remoteCaller(service: RemoteService) {
  const { base, fetch: fetchFn } = service;
  const queryChecks = new Map<string, QueryCheck | undefined>();

  return async function call(
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
    headers.set('authorization', `Bearer ${service.accessToken}`);
    if (raw.body !== undefined) headers.set('content-type', 'application/json');
    const { timeoutMs } = service;
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
      if (res.status === 401 && service.tokenRefused) {
        envelope.error = `${envelope.error}: ${service.tokenRefused}`;
      }
      return errorResult(envelope, res.status, res.headers.get('retry-after'));
    }
    const etag = res.headers.get('etag');
    return successResult(generated, {
      status: res.status,
      body,
      ...(etag ? { headers: { etag } } : {}),
    });
  };
}
