/**
 * The MCP server both transports share: an SDK `Server` (low level, because the tools are
 * generated JSON Schemas rather than zod shapes) answering `tools/list` and `tools/call` from a
 * catalog. The hosted endpoint builds one per HTTP request (stateless, see http.ts); the local
 * notes server builds one for its stdio session.
 *
 * Protocol errors stay JSON-RPC errors (an unknown tool, malformed params); a failed operation
 * is a tool result with `isError: true` (tools.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * Per-call values a client may send in the request's `_meta`, as over REST in headers:
 * `idempotencyKey` (Idempotency-Key: a retried write returns its first result) and `ifMatch`
 * (If-Match: the ETag a previous result carried in its `_meta.etag`).
 */
export interface CallMeta {
  idempotencyKey?: string;
  ifMatch?: string;
}

export interface ToolCatalog {
  list(): Tool[] | Promise<Tool[]>;
  /** throws UnknownTool for a name that is not one of its tools */
  call(
    name: string,
    args: Record<string, unknown> | undefined,
    meta: CallMeta,
  ): Promise<CallToolResult>;
}

export function unknownTool(name: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
}

export interface ServerInfo {
  name: string;
  version: string;
  instructions?: string;
}

function stringOrUndefined(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new McpError(ErrorCode.InvalidParams, `_meta.${name} must be a string`);
  }
  return value;
}

/**
 * Ends every server's instructions: what a call passes and a result carries in `_meta`, where REST
 * has headers (tool descriptions say the same in these words: mcp-terms.ts).
 */
const CALL_META =
  "Every tool that writes takes `_meta.idempotencyKey` in the call's `_meta`: a retried call with the same key returns its first result instead of writing again (the same key with other arguments is refused). A result may carry `_meta.etag`: pass it back as `_meta.ifMatch` to a tool that honours it, and the call is refused if what it changes has changed since. A failed call's result carries the REST API's HTTP status as `_meta.status` (the statuses tool descriptions name) and, when it asks you to wait, `_meta.retryAfter` in seconds.";

export function createMcpServer(info: ServerInfo, catalog: ToolCatalog): Server {
  const instructions = [info.instructions, CALL_META].filter(Boolean).join(' ');
  const server = new Server(
    { name: info.name, version: info.version },
    { capabilities: { tools: { listChanged: false } }, instructions },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await catalog.list() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const meta = (request.params._meta ?? {}) as Record<string, unknown>;
    return catalog.call(request.params.name, request.params.arguments, {
      idempotencyKey: stringOrUndefined(meta.idempotencyKey, 'idempotencyKey'),
      ifMatch: stringOrUndefined(meta.ifMatch, 'ifMatch'),
    });
  });
  return server;
}
