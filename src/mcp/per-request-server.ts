/**
 * The answer to one `POST /mcp` whose caller is authenticated and whose body parsed: a fresh SDK
 * server and Streamable HTTP transport for this request only (stateless: JSON body, no SSE, no
 * `Mcp-Session-Id`), with the checks of message-check.ts and the bounds of batch-work.ts between
 * them. Whatever goes wrong inside the SDK is logged; an answer it cannot send is answered here.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { cutAt } from '../../commands/shared/text.js';
import type { HttpLogger } from '../http/registry.js';
import { ANSWERED_STATUS, sendJson } from '../http/respond.js';
import { batchRevisionProblem } from './batch-revision.js';
import { boundBatchWork, MAX_ANSWER_BYTES } from './batch-work.js';
import {
  batchProblem,
  problemOf,
  refuseMalformedRequests,
  reportProtocolErrors,
} from './message-check.js';
import { createMcpServer, type ServerInfo, type ToolCatalog } from './server.js';

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

export function jsonRpcError(res: Response, status: number, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

export interface PerRequestServerOptions {
  info: ServerInfo;
  /** the caller's catalog; `answered` hears the HTTP status of each tool call's answer */
  catalog(answered: (status: number) => void): ToolCatalog;
  /** every tool name the endpoint has: only these name a call in the access log and metrics */
  toolNames: ReadonlySet<string>;
  correlationId: string;
  logger: HttpLogger;
}

export async function answerWithServer(
  req: Request,
  res: Response,
  options: PerRequestServerOptions,
): Promise<void> {
  const { correlationId, logger } = options;
  // JSON that is no JSON-RPC message: -32600, where the SDK would say "parse error" (-32700);
  // a batch under a revision that has none (batch-revision.ts) or beyond its bounds: -32600
  const problem = Array.isArray(req.body)
    ? (batchRevisionProblem(req.body, req.headers['mcp-protocol-version']) ??
      batchProblem(req.body))
    : problemOf(req.body);
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
  const server = createMcpServer(options.info, options.catalog(answered));
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
    logger.warn('MCP request failed', { correlationId, reason: quoted(error) });
  };
  await server.connect(transport);
  refuseMalformedRequests(transport);
  reportProtocolErrors(transport, answered);
  boundBatchWork(transport, {
    maxAnswerBytes: MAX_ANSWER_BYTES,
    onRefused(id, reason) {
      logger.warn('MCP answer refused', { correlationId, id, reason });
    },
    onSendFailed(id, error) {
      logger.error('MCP answer could not be sent', { correlationId, id, error });
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
