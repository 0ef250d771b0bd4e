/**
 * The hosted MCP endpoint of a service, `POST {base}/mcp`, as an Express router the service
 * mounts in its app (src/platform/service-app.ts `routes`), plus the endpoint's RFC 9728
 * metadata at `/.well-known/oauth-protected-resource/mcp`.
 *
 * Streamable HTTP, stateless: every POST carries its own bearer credential, authenticated like a
 * REST request and checked again before each of its tool calls, and is answered by a fresh SDK server and transport with a JSON body (no SSE,
 * no `Mcp-Session-Id`), so any API process can answer any request. GET (a server-initiated
 * stream) and DELETE (ending a session) have nothing to serve: 405 with `Allow: POST`.
 *
 * A request whose `Origin` is not the service's own nor one of MCP_ALLOWED_ORIGINS is answered
 * 403 before anything else (MCP Streamable HTTP transport: "If the Origin header is present and
 * invalid, servers MUST respond with HTTP 403 Forbidden"): a page whose DNS name was rebound to
 * the service's address is same-origin to the browser, so only the configured names count.
 * Calls without `Origin` (every non-browser client) are not affected.
 *
 * What passes these gates (and authentication, and a body that is JSON) is answered by
 * per-request-server.ts, which also bounds a batch (batch-work.ts). A refused credential is an
 * HTTP answer, not JSON-RPC (credential-refusal.ts): 401 with
 * `WWW-Authenticate: Bearer resource_metadata="…/.well-known/oauth-protected-resource/mcp"`
 * (what an MCP client starts OAuth discovery from), 403 with `error="insufficient_scope"`.
 */
import { type Request, Router } from 'express';
import type { ProtectedResourceMetadata } from '../auth/resource-metadata.js';
import { resourceMetadataUrl } from '../auth/index.js';
import { INVALID_TEXT, jsonBody } from '../http/json-body.js';
import type { ErrorEnvelope, HttpLogger } from '../http/registry.js';
import { type RequestIds, requestIdsFor, sendJson } from '../http/respond.js';
import { refuseCredential } from './credential-refusal.js';
import { HOSTED_MAX_MESSAGE_BYTES } from './message-check.js';
import { answerWithServer, jsonRpcError } from './per-request-server.js';
import type { ServerInfo, ToolCatalog } from './server.js';

export const MCP_PATH = '/mcp';

export interface McpEndpointOptions<P> {
  info: ServerInfo;
  /** the caller of one MCP request, checked as the service's REST routes check theirs */
  authenticate(req: Request): Promise<P>;
  /**
   * the caller again, live, before each tool call of the request (throw Unauthenticated once
   * its credential was revoked): a call after a revocation is refused however long ago the POST
   * was authenticated, the call before it in a batch included
   */
  recheck(req: Request, principal: P): Promise<P>;
  /** WWW-Authenticate of a 401 (missing or refused credential) */
  challenge(req: Request, error: unknown): string;
  /** the endpoint's RFC 9728 document, for the host that was asked */
  resourceMetadata(req: Request): ProtectedResourceMetadata;
  /**
   * `answered` hears the HTTP status of each tool call's answer (see `ANSWERED_STATUS`);
   * `recheck` checks the caller again before each call
   */
  catalogFor(
    principal: P,
    ids: RequestIds,
    answered: (status: number) => void,
    recheck: () => Promise<P>,
  ): ToolCatalog;
  /** every tool name the endpoint has: only these name a call in the access log and metrics */
  toolNames: ReadonlySet<string>;
  /**
   * what this caller is told at `initialize` after `info.instructions` (feedback: the caller's
   * workspaces, which no tool lists); asked only for a POST that holds an `initialize`
   */
  instructionsFor?(principal: P): Promise<string | undefined>;
  /** a short label of the caller for the access log */
  describeCaller?(principal: P): string;
  envelope: ErrorEnvelope;
  logger: HttpLogger;
  /** largest accepted JSON-RPC message in bytes; default HOSTED_MAX_MESSAGE_BYTES (message-check.ts) */
  bodyLimit?: number;
  /** origins (`scheme://host[:port]`) a browser may call from: the service's own, configured ones */
  allowedOrigins: readonly string[];
}

export function mcpEndpoint<P>(options: McpEndpointOptions<P>): Router {
  const router = Router();
  // not strict: JSON that is no object nor array (`null`, `1`) is JSON, so no JSON-RPC Request
  // (-32600) rather than unparsable (-32700)
  const parseJson = jsonBody({
    limit: options.bodyLimit ?? HOSTED_MAX_MESSAGE_BYTES,
    type: 'application/json',
    strict: false,
  });

  router.get(resourceMetadataUrl('', MCP_PATH), (req, res) => {
    res.setHeader('Cache-Control', 'max-age=3600');
    sendJson(res, 200, options.resourceMetadata(req));
  });

  const allowedOrigins = new Set(options.allowedOrigins);

  /** the server's info for one POST: the caller's own instructions when it initializes */
  async function infoFor(body: unknown, principal: P, correlationId: string): Promise<ServerInfo> {
    const { info, instructionsFor } = options;
    const messages: unknown[] = Array.isArray(body) ? body : [body];
    const initializes = messages.some(
      (m) => (m as { method?: unknown } | null)?.method === 'initialize',
    );
    if (!instructionsFor || !initializes) return info;
    try {
      const own = await instructionsFor(principal);
      if (!own) return info;
      return { ...info, instructions: [info.instructions, own].filter(Boolean).join(' ') };
    } catch (error) {
      // the general instructions still serve: the session must not fail for a courtesy
      options.logger.warn('MCP instructions for the caller failed', { correlationId, error });
      return info;
    }
  }

  /**
   * A POST holding a tool call checks its caller again once its body is whole, before anything
   * of it runs: a credential revoked while the body arrived is answered as one refused on
   * arrival — 401 with the challenge, from which an MCP client re-authorises and sends the
   * POST again (MCP authorization: "Invalid or expired tokens MUST receive a HTTP 401
   * response"); nothing ran, so sending it again repeats nothing. A call of a batch refused
   * after an earlier one ran stays a tool result (hosted.ts): a 401 would lose that one's answer.
   */
  async function checkedForCalls(
    req: Request,
    principal: P,
  ): Promise<{ principal?: P; refused?: unknown }> {
    const messages: unknown[] = Array.isArray(req.body) ? req.body : [req.body];
    const calls = messages.some((m) => (m as { method?: unknown } | null)?.method === 'tools/call');
    if (!calls) return {};
    try {
      return { principal: await options.recheck(req, principal) };
    } catch (refused) {
      return { refused };
    }
  }

  router.all(MCP_PATH, async (req, res, next) => {
    res.locals.operationId = 'mcp';
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      jsonRpcError(res, 403, -32000, `Forbidden: requests from origin ${origin} are not allowed`);
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      jsonRpcError(
        res,
        405,
        -32000,
        'Method not allowed: this MCP endpoint is stateless; send every JSON-RPC message with POST',
      );
      return;
    }
    const ids = requestIdsFor(req, res);
    const { correlationId } = ids;
    let principal: P;
    try {
      principal = await options.authenticate(req);
    } catch (error) {
      refuseCredential(req, res, error, correlationId, options);
      return;
    }
    if (options.describeCaller) res.locals.caller = options.describeCaller(principal);
    // Streamable HTTP: every message is POSTed as application/json; another body is not read
    if (!req.is('application/json')) {
      jsonRpcError(
        res,
        415,
        -32000,
        'Unsupported Media Type: Content-Type must be application/json',
      );
      return;
    }
    parseJson(req, res, (error?: unknown) => {
      // the client closed mid-body: nobody to answer, and its access line says 499, not 400
      if ((error as { type?: string } | undefined)?.type === 'request.aborted') return;
      if (error) {
        const tooLarge = (error as { type?: string }).type === 'entity.too.large';
        const text = (error as { type?: string }).type === INVALID_TEXT;
        const { length, limit } = error as { length?: number; limit?: number };
        const reason = tooLarge
          ? `the message is too large (${length === undefined ? '' : `${length} bytes; `}at most ${limit})`
          : text
            ? (error as Error).message
            : 'invalid JSON';
        jsonRpcError(res, tooLarge ? 413 : 400, -32700, `Parse error: ${reason}`);
        return;
      }
      checkedForCalls(req, principal)
        .then(async (checked) => {
          if (checked.refused !== undefined) {
            refuseCredential(req, res, checked.refused, correlationId, options);
            return;
          }
          const info = await infoFor(req.body, principal, correlationId);
          // the check just made serves the first tool call; each later one checks again
          let first: P | undefined = checked.principal;
          const recheck = async (): Promise<P> => {
            const fresh = first;
            first = undefined;
            return fresh ?? options.recheck(req, principal);
          };
          await answerWithServer(req, res, {
            info,
            catalog: (answered) => options.catalogFor(principal, ids, answered, recheck),
            toolNames: options.toolNames,
            correlationId,
            logger: options.logger,
          });
        })
        .catch(next);
    });
  });

  return router;
}
