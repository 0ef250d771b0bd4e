/**
 * A tool catalog that calls a service's HTTP API: the local notes MCP server is a thin client,
 * so its tools come from the service's OpenAPI document (openapi-source.ts, fetched once, on
 * the first request that needs it) and each call is the REST request, with the access token
 * from the environment. Answers are shaped exactly as the hosted server shapes them (tools.ts):
 * the body as structuredContent and text, an error status as `isError` with the API's envelope.
 * The tools are read in remote-read.ts, a call is sent in remote-call.ts, and its arguments are
 * checked and made into the request in remote-request.ts.
 */
import { remoteCaller } from './remote-call.js';
import { remoteToolReader } from './remote-read.js';
import { type ToolCatalog, unknownTool } from './server.js';
import { errorResult, type GeneratedTool } from './tools.js';

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
  /**
   * what an error result adds when the service refuses the access token (401): how the user
   * gives the server a new one (the server cannot sign in by itself)
   */
  tokenRefused?: string;
}

/**
 * A call the service does not answer within this is answered 504: an assistant waiting on a
 * hung service otherwise waits for its host's own timeout, if it has one. A write waits at most
 * PROJECTION_WAIT_MS (10 s by default) for its read models before the service answers 503.
 */
export const CALL_TIMEOUT_MS = 60_000;

export function remoteTools(options: RemoteToolsOptions): ToolCatalog {
  const service = {
    fetch: options.fetch ?? fetch,
    base: options.baseUrl.replace(/\/+$/, ''),
    accessToken: options.accessToken,
    timeoutMs: options.timeoutMs ?? CALL_TIMEOUT_MS,
    ...(options.tokenRefused ? { tokenRefused: options.tokenRefused } : {}),
  };
  const tools = remoteToolReader(service, options.openapiPath, options.identity);
  const call = remoteCaller(service);

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
