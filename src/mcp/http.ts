/**
 * The hosted MCP endpoint of a service, `POST {base}/mcp`, as an Express router the service
 * mounts in its app (src/platform/service-app.ts `routes`), plus the endpoint's RFC 9728
 * metadata at `/.well-known/oauth-protected-resource/mcp`.
 *
 * Streamable HTTP, stateless: every POST carries its own bearer credential, authenticated like a
 * REST request, and is answered by a fresh SDK server and transport with a JSON body (no SSE,
 * no `Mcp-Session-Id`), so any API process can answer any request. GET (a server-initiated
 * stream) and DELETE (ending a session) have nothing to serve: 405 with `Allow: POST`.
 *
 * A request whose `Origin` is not the service's own nor one of MCP_ALLOWED_ORIGINS is answered
 * 403 before anything else (MCP Streamable HTTP transport: "If the Origin header is present and
 * invalid, servers MUST respond with HTTP 403 Forbidden"): a page whose DNS name was rebound to
 * the service's address is same-origin to the browser, so only the configured names count.
 * Calls without `Origin` (every non-browser client) are not affected.
 *
 * A batch (protocol revisions before 2025-06-18) is bounded (batch-work.ts): at most ten messages,
 * handed to the server one after another, and answers past 16 MiB in all replaced by a JSON-RPC
 * error. Whatever goes wrong inside the SDK is logged; an answer it cannot send is answered here.
 *
 * Refused credentials are HTTP answers, not JSON-RPC: 401 with
 * `WWW-Authenticate: Bearer resource_metadata="…/.well-known/oauth-protected-resource/mcp"`
 * (what an MCP client starts OAuth discovery from), 403 with `error="insufficient_scope"`,
 * each with the service's error envelope as body.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { type Request, type Response, Router } from 'express';
import { cutAt } from '../../commands/shared/text.js';
import { INVALID_TEXT, jsonBody } from '../http/json-body.js';
import type { ProtectedResourceMetadata } from '../auth/resource-metadata.js';
import { resourceMetadataUrl } from '../auth/index.js';
import { type ErrorEnvelope, type HttpLogger, resolveError } from '../http/registry.js';
import { ANSWERED_STATUS, correlationIdFor, sendJson } from '../http/respond.js';
import { boundBatchWork, MAX_ANSWER_BYTES } from './batch-work.js';
import {
  batchProblem,
  problemOf,
  refuseMalformedRequests,
  reportProtocolErrors,
} from './message-check.js';
import { createMcpServer, type ServerInfo, type ToolCatalog } from './server.js';

export const MCP_PATH = '/mcp';

export interface McpEndpointOptions<P> {
  info: ServerInfo;
  /** the caller of one MCP request, checked as the service's REST routes check theirs */
  authenticate(req: Request): Promise<P>;
  /** WWW-Authenticate of a 401 (missing or refused credential) */
  challenge(req: Request, error: unknown): string;
  /** the endpoint's RFC 9728 document, for the host that was asked */
  resourceMetadata(req: Request): ProtectedResourceMetadata;
  /** `answered` hears the HTTP status of each tool call's answer (see `ANSWERED_STATUS`) */
  catalogFor(principal: P, correlationId: string, answered: (status: number) => void): ToolCatalog;
  /** every tool name the endpoint has: only these name a call in the access log and metrics */
  toolNames: ReadonlySet<string>;
  /** a short label of the caller for the access log */
  describeCaller?(principal: P): string;
  envelope: ErrorEnvelope;
  logger: HttpLogger;
  /** largest accepted JSON-RPC message; default 1mb */
  bodyLimit?: string;
  /** origins (`scheme://host[:port]`) a browser may call from: the service's own, configured ones */
  allowedOrigins: readonly string[];
}

/**
 * The most of an SDK error a log line quotes: its messages quote what the client sent (a whole
 * 1 MB "response" to an unknown message id), which must not reach the log whole.
 */
const QUOTED_CHARS = 200;

function quoted(error: unknown): string {
  const text = String(error);
  const kept = cutAt(text, QUOTED_CHARS);
  return kept === text ? text : `${kept}… (${text.length} characters)`;
}

function jsonRpcError(res: Response, status: number, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

export function mcpEndpoint<P>(options: McpEndpointOptions<P>): Router {
  const router = Router();
  // not strict: JSON that is no object nor array (`null`, `1`) is JSON, so no JSON-RPC Request
  // (-32600) rather than unparsable (-32700)
  const parseJson = jsonBody({
    limit: options.bodyLimit ?? '1mb',
    type: 'application/json',
    strict: false,
  });

  router.get(resourceMetadataUrl('', MCP_PATH), (req, res) => {
    res.setHeader('Cache-Control', 'max-age=3600');
    sendJson(res, 200, options.resourceMetadata(req));
  });

  const allowedOrigins = new Set(options.allowedOrigins);

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
    const correlationId = correlationIdFor(req, res);
    let principal: P;
    try {
      principal = await options.authenticate(req);
    } catch (error) {
      refuse(req, res, error, correlationId);
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
        const reason = tooLarge
          ? 'the message is too large'
          : text
            ? (error as Error).message
            : 'invalid JSON';
        jsonRpcError(res, tooLarge ? 413 : 400, -32700, `Parse error: ${reason}`);
        return;
      }
      serve(req, res, principal, correlationId).catch(next);
    });
  });

  async function serve(req: Request, res: Response, principal: P, correlationId: string) {
    // JSON that is no JSON-RPC message: -32600, where the SDK would say "parse error" (-32700)
    const problem = Array.isArray(req.body) ? batchProblem(req.body) : problemOf(req.body);
    if (problem?.code === ErrorCode.InvalidRequest) {
      const { code, message, id } = problem;
      sendJson(res, 400, { jsonrpc: '2.0', error: { code, message }, id });
      return;
    }
    const message = req.body as { method?: unknown; params?: { name?: unknown } } | undefined;
    const name = message?.method === 'tools/call' ? message.params?.name : undefined;
    // a metric label must stay bounded: a name the client made up is not one
    if (typeof name === 'string' && options.toolNames.has(name)) {
      res.locals.operationId = `mcp:${name}`;
    }
    // the transport answers 200 whatever the tools answered: the access line and the metric
    // take the tools' status (or a protocol error's, message-check.ts), of a batch the worst
    // (highest) one
    const answered = (status: number) => {
      const worst = res.locals[ANSWERED_STATUS] as number | undefined;
      res.locals[ANSWERED_STATUS] = Math.max(worst ?? 0, status);
    };
    const server = createMcpServer(
      options.info,
      options.catalogFor(principal, correlationId, answered),
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    // the SDK reports here what it answered itself and what it could not answer
    server.onerror = (error) => {
      options.logger.warn('MCP request failed', { correlationId, reason: quoted(error) });
    };
    await server.connect(transport);
    refuseMalformedRequests(transport);
    reportProtocolErrors(transport, answered);
    boundBatchWork(transport, {
      maxAnswerBytes: MAX_ANSWER_BYTES,
      onRefused(id, reason) {
        options.logger.warn('MCP answer refused', { correlationId, id, reason });
      },
      onSendFailed(id, error) {
        options.logger.error('MCP answer could not be sent', { correlationId, id, error });
        if (res.headersSent) return;
        jsonRpcError(
          res,
          500,
          ErrorCode.InternalError,
          `Internal error: the answer could not be sent; quote correlation id ${correlationId} when reporting it`,
        );
      },
    });
    await transport.handleRequest(req, res, req.body);
  }

  function refuse(req: Request, res: Response, error: unknown, correlationId: string): void {
    const resolved = resolveError(error);
    if (resolved.kind === 'internal') {
      options.logger.error('MCP authentication failed', { correlationId, error });
    }
    for (const [name, value] of Object.entries(resolved.headers)) res.setHeader(name, value);
    if (resolved.kind === 'unauthenticated') {
      res.setHeader('WWW-Authenticate', options.challenge(req, error));
    }
    const message =
      resolved.kind === 'internal'
        ? `internal error; quote correlation id ${correlationId} when reporting it`
        : resolved.message;
    sendJson(
      res,
      options.envelope.status(resolved.kind),
      options.envelope.body(resolved.kind, message),
    );
  }

  return router;
}
