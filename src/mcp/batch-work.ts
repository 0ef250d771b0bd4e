/**
 * The work one `POST /mcp` may cause. JSON-RPC batching is gone from MCP since protocol revision
 * 2025-06-18 ("Remove support for JSON-RPC batching"); clients of 2025-03-26 may still send one.
 * A batch used to run all of its calls at once and to answer them in one string: 100
 * `search_notes` calls took 12–19 s and answered 397 MB, and 30 `get_item` calls on a 10 MB item
 * passed V8's ~512 MB string limit, so the SDK's transport threw while serializing, nothing caught
 * it and the request never got an answer. Here:
 *
 *  - a batch holds at most MAX_BATCH_MESSAGES messages (message-check.ts refuses a longer one as
 *    the transport refuses one of more than 100);
 *  - its messages are handed to the server one after another: a request only once the one before
 *    it was answered, so one POST runs one tool call at a time, in the order sent;
 *  - its answers are kept while their total stays within `maxAnswerBytes`; a call whose answer
 *    does not fit is answered with a JSON-RPC error saying so. The first answer always goes out
 *    whole (a lone call answers what REST answers), so a POST answers at most the larger of its
 *    first call's answer and `maxAnswerBytes`;
 *  - an answer that cannot be serialized or sent is logged and replaced by an error; nothing is
 *    swallowed.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * Messages one batch may hold. The SDK client sends none; a client of revision 2025-03-26 may
 * batch a few calls it has at hand (`tools/list` and a call or two). Ten keeps that working and
 * bounds a POST to the work of ten REST requests, which one client gets by opening ten
 * connections anyway; 100 (the SDK's bound) let one request hold a process for seconds.
 */
export const MAX_BATCH_MESSAGES = 10;

/**
 * Total bytes of the answers of one POST after its first. A page of notes or items with every
 * body at its limit is a few MB as structured content plus its JSON text; 16 MiB keeps a batch of
 * ordinary calls whole and stays far below V8's string limit.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * JSON-RPC 2.0 §5.1: "-32000 to -32099 | Server error | Reserved for implementation-defined
 * server-errors"; the transport's own refusals (406, 415, a batch of more than 100) use -32000.
 */
export const ANSWER_TOO_LARGE = -32000;

export interface BatchWorkOptions {
  maxAnswerBytes: number;
  /** an answer was replaced by a JSON-RPC error (too large, not serializable): to be logged */
  onRefused(id: RequestId, reason: string): void;
  /** the transport could not send an answer: the endpoint logs it and answers the POST itself */
  onSendFailed(id: RequestId, error: unknown): void;
}

type Deliver = NonNullable<Transport['onmessage']>;
type Extra = Parameters<Deliver>[1];

const isAnswer = (message: JSONRPCMessage) =>
  isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);

function answerSize(message: JSONRPCMessage): number | null {
  try {
    return Buffer.byteLength(JSON.stringify(message));
  } catch {
    return null;
  }
}

/**
 * Puts the bounds above between the SDK server and its transport. Call it after
 * `server.connect(transport)` and any other `onmessage` wrapper (it must see messages first).
 */
export function boundBatchWork(transport: Transport, options: BatchWorkOptions): void {
  const deliver = transport.onmessage;
  const send = transport.send.bind(transport);
  if (!deliver) throw new Error('connect the server to the transport first');
  const waiting: Array<[JSONRPCMessage, Extra]> = [];
  let answering: RequestId | undefined;
  // a lone call's answer is never measured: only a second answer needs the first one's size
  let first: JSONRPCMessage | undefined;
  let answeredBytes = 0;
  let answers = 0;
  let closed = false;

  function next(): void {
    while (answering === undefined && !closed) {
      const head = waiting.shift();
      if (!head) return;
      const [message, extra] = head;
      if (isJSONRPCRequest(message)) answering = message.id;
      deliver!(message, extra);
    }
  }

  transport.onmessage = (message, extra) => {
    waiting.push([message, extra]);
    next();
  };

  const onclose = transport.onclose;
  transport.onclose = () => {
    // the client is gone: the calls it is no longer waiting for do not run
    closed = true;
    waiting.length = 0;
    onclose?.();
  };

  transport.send = async (message, sendOptions) => {
    if (!isAnswer(message)) return send(message, sendOptions);
    const id = (message as { id: RequestId }).id;
    let answer: JSONRPCMessage = message;
    if (first !== undefined) {
      answeredBytes += answerSize(first) ?? 0;
      first = undefined;
    }
    const bytes = answers === 0 ? 0 : answerSize(message);
    if (answers === 0) {
      first = message;
    } else if (bytes === null) {
      options.onRefused(id, 'the answer could not be serialized');
      answer = refusal(
        id,
        ErrorCode.InternalError,
        'Internal error: the answer could not be serialized',
      );
    } else if (answeredBytes + bytes > options.maxAnswerBytes) {
      options.onRefused(
        id,
        `its answer of ${bytes} bytes would pass the batch's ${options.maxAnswerBytes} after ${answeredBytes}`,
      );
      answer = refusal(
        id,
        ANSWER_TOO_LARGE,
        `Answer too large: with this call the batch's answers would pass ${options.maxAnswerBytes} bytes; send it again on its own`,
      );
    } else {
      answeredBytes += bytes;
    }
    answers += 1;
    try {
      await send(answer, sendOptions);
    } catch (error) {
      options.onSendFailed(id, error);
    } finally {
      if (answering === id) {
        answering = undefined;
        next();
      }
    }
  };
}

function refusal(id: RequestId, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message } };
}
