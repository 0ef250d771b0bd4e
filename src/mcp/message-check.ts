/**
 * What is wrong with a JSON-RPC message, said in JSON-RPC's own terms before the SDK sees it.
 * The SDK answers a body that is JSON but not a JSON-RPC message as a parse error (-32700), and a
 * known method whose params have the wrong shape (`tools/call` with `arguments: []`, `initialize`
 * without params) as an internal error (-32603) carrying zod's dump. Here:
 *   not a JSON-RPC 2.0 request, notification or response → -32600 Invalid Request;
 *   `initialize`, `tools/list` or `tools/call` with malformed params → -32602 Invalid params,
 *   and so is a `tools/call` argument named `__proto__`, `constructor` or `prototype` (the SDK's
 *   parse dropped `__proto__`: the call ran without it, silently),
 * each with a message that names the field.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCErrorResponse,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ANSWER_TOO_LARGE, MAX_BATCH_MESSAGES } from './batch-work.js';
import { RESERVED_ARGUMENT_NAMES } from './tool-input.js';

/**
 * The largest JSON-RPC message either server reads (the SDK's stdio bound,
 * STDIO_DEFAULT_MAX_BUFFER_SIZE): past it, -32700 "the message is too large". It is above the
 * services' 1 MiB request body on purpose: a tool call whose arguments are too large for the API
 * is read and answered as REST answers the body (413 on notes, 400 on the feedback board), an
 * error result the assistant can act on, on the hosted servers as on the local one, which
 * forwards the call to REST.
 */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The largest message the hosted `/mcp` reads: twice the API's body, so a call a little too large
 * for the API still gets REST's error result, but not the local server's 10 MiB — a hosted process
 * holds up to HTTP_MAX_CONNECTIONS bodies in memory at once (2,000 × 10 MiB would be 20 GiB, more
 * than the machine; 2,000 × 2 MiB is 4 GiB, against 2 GiB at the API's 1 MiB), where the local
 * server reads one client's.
 */
export const HOSTED_MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

export interface MessageProblem {
  code: number;
  message: string;
  /** the request's id, when it had a usable one */
  id: string | number | null;
}

type Issue = { path: readonly PropertyKey[]; message: string };
type Checked = { success: true } | { success: false; error: { issues: readonly Issue[] } };

const REQUESTS: Record<string, { safeParse(value: unknown): Checked }> = {
  initialize: InitializeRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

const described = (issues: readonly Issue[]) =>
  issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || 'message'}: ${issue.message}`)
    .join('; ');

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What makes `message` no JSON-RPC 2.0 message at all; null when it is one. */
function envelopeProblem(message: unknown): string | null {
  if (!isObject(message)) return 'a message is a JSON object';
  if (message.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if ('id' in message && typeof message.id !== 'string' && typeof message.id !== 'number') {
    return 'id must be a string or a number';
  }
  if ('method' in message && typeof message.method !== 'string') return 'method must be a string';
  if ('params' in message && !isObject(message.params)) return 'params must be an object';
  if (!JSONRPCMessageSchema.safeParse(message).success) {
    return 'not a request, a notification or a response';
  }
  return null;
}

export function problemOf(message: unknown): MessageProblem | null {
  const raw = isObject(message) ? message.id : undefined;
  const id = typeof raw === 'string' || typeof raw === 'number' ? raw : null;
  const envelope = envelopeProblem(message);
  if (envelope)
    return { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${envelope}`, id };
  const method = (message as { method?: string }).method;
  const schema = method === undefined ? undefined : REQUESTS[method];
  const checked = schema?.safeParse(message);
  if (checked && !checked.success) {
    return {
      code: ErrorCode.InvalidParams,
      message: `Invalid params of ${method}: ${described(checked.error.issues)}`,
      id,
    };
  }
  const reserved = method === 'tools/call' ? reservedArgument(message) : undefined;
  if (reserved === undefined) return null;
  return {
    code: ErrorCode.InvalidParams,
    message: `Invalid params of tools/call: params.arguments.${reserved}: no tool takes an argument named "${reserved}"`,
    id,
  };
}

/** An own key of a call's arguments that no tool may take (tool-input.ts says why). */
function reservedArgument(message: unknown): string | undefined {
  const args = (message as { params?: { arguments?: unknown } }).params?.arguments;
  if (!isObject(args)) return undefined;
  return Object.keys(args).find((name) => RESERVED_ARGUMENT_NAMES.has(name));
}

/**
 * A batch (protocol revisions before 2025-06-18) refused whole, before anything runs:
 *  - one of more than `maxMessages` (batch-work.ts says why ten), as the SDK's transport refuses
 *    one of more than 100;
 *  - one whose requests share an id: the answers could not be told apart, and the SDK keeps one of
 *    them — the other request would still run, its result lost (JSON-RPC 2.0 §4: the id is what
 *    matches an answer).
 */
export function batchProblem(batch: readonly unknown[]): MessageProblem | null {
  // JSON-RPC 2.0 §6: "rpc call with an empty Array" is answered one -32600 error, not silence
  if (batch.length === 0) {
    return { code: ErrorCode.InvalidRequest, message: 'Invalid Request: empty batch', id: null };
  }
  if (batch.length > MAX_BATCH_MESSAGES) {
    return {
      code: ErrorCode.InvalidRequest,
      message: `Invalid Request: Batch must not exceed ${MAX_BATCH_MESSAGES} messages (MCP 2025-06-18 removed batching: send each message in its own POST)`,
      id: null,
    };
  }
  const seen = new Set<string | number>();
  for (const message of batch) {
    if (!isObject(message) || !('method' in message)) continue;
    const { id } = message;
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    if (seen.has(id)) {
      return {
        code: ErrorCode.InvalidRequest,
        message: `Invalid Request: the requests of a batch need different ids (${JSON.stringify(id)} is used twice)`,
        id: null,
      };
    }
    seen.add(id);
  }
  return null;
}

/**
 * Answers a request whose params are malformed with its JSON-RPC error instead of passing it to
 * the SDK; call it right after `server.connect(transport)` (which sets `onmessage`).
 */
export function refuseMalformedRequests(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('connect the server to the transport first');
  transport.onmessage = (message, extra) => {
    const problem = 'method' in message && 'id' in message ? problemOf(message) : null;
    if (problem === null || problem.id === null) {
      deliver(message, extra);
      return;
    }
    const { code, message: text, id } = problem;
    void transport.send({ jsonrpc: '2.0', id, error: { code, message: text } });
  };
}

/**
 * The status a REST route would answer for each JSON-RPC error: JSON-RPC answers them 200 like
 * any answer, and the access log and the request metric would count a client's malformed or
 * unknown calls as successes, and the server's own failures (-32603: the SDK failed, an answer
 * could not be serialized) as neither, hidden from an alert on 5xx. An answer batch-work.ts
 * refused as too large for its batch is the client's to send again on its own: 413.
 */
const PROTOCOL_ERROR_STATUS = new Map<number, number>([
  [ErrorCode.ParseError, 400],
  [ErrorCode.InvalidRequest, 400],
  [ErrorCode.InvalidParams, 400],
  [ErrorCode.MethodNotFound, 404],
  [ANSWER_TOO_LARGE, 413],
  [ErrorCode.InternalError, 500],
]);

/**
 * Tells `answered` the status of every protocol error the transport sends (the SDK's own, an
 * unknown tool's, `refuseMalformedRequests`'); what the client gets is unchanged. Call it right
 * after `server.connect(transport)`, before `boundBatchWork`, so it sees every answer.
 */
export function reportProtocolErrors(
  transport: Transport,
  answered: (status: number) => void,
): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (isJSONRPCErrorResponse(message)) {
      const status = PROTOCOL_ERROR_STATUS.get(message.error.code);
      if (status !== undefined) answered(status);
    }
    return send(message, options);
  };
}
