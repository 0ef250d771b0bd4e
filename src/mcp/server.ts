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
 * Ends every server's instructions, beside the `_meta` reading below: tool descriptions come from
 * the REST operations and speak of headers, which a tool call cannot send.
 */
const HEADERS_IN_META =
  "Every tool that writes takes an Idempotency-Key in the call's `_meta` as `idempotencyKey`: a retried call with the same key returns its first result instead of writing again (the same key with other arguments is refused). Where a tool's description mentions the If-Match header, put the value in `_meta.ifMatch`: the `_meta.etag` of an earlier result.";

export function createMcpServer(info: ServerInfo, catalog: ToolCatalog): Server {
  const instructions = [info.instructions, HEADERS_IN_META].filter(Boolean).join(' ');
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
