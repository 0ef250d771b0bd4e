/**
 * The local notes server's stdio transport: one JSON-RPC message a line, as the SDK's
 * `StdioServerTransport`, except for a line it cannot take. The SDK's drops a line that is not
 * JSON, or not a JSON-RPC message, without an answer (the client waits for its id until its own
 * timeout), and a message longer than its 10 MiB buffer closes the whole session: the process
 * ended and every later call of the assistant failed "Connection closed". Here each such line is
 * answered, as the hosted endpoint answers the same POST body, and the session goes on:
 *   not JSON → -32700 Parse error;
 *   JSON but no JSON-RPC message → -32600 Invalid Request naming what is wrong (message-check.ts);
 *   longer than MAX_LINE_BYTES → -32700 "the message is too large", read no further.
 * An error answers the request's id when the line has a usable one (a too-large line's is read
 * off its end, where the SDK's clients write it), and null otherwise (JSON-RPC 2.0 §5).
 */
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { MAX_MESSAGE_BYTES, problemOf } from './message-check.js';

/** The bound of every MCP message (message-check.ts); the notes API takes bodies of 1 MiB. */
export const MAX_LINE_BYTES = MAX_MESSAGE_BYTES;

/** How much of a too-large line's end is kept to find its id in. */
const TAIL_BYTES = 300;
/** `"id": 7}` or `"id": "a"}` closing the line: the top-level id the SDK writes last. */
const ID_AT_END = /[,{]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*}\s*$/;

type Id = string | number | null;

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** the current line's chunks, or, once it passed MAX_LINE_BYTES, only its last bytes */
  private chunks: Buffer[] = [];
  private size = 0;
  private tooLarge = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    let rest = chunk;
    for (let end = rest.indexOf(10); end !== -1; end = rest.indexOf(10)) {
      this.add(rest.subarray(0, end));
      this.lineEnded();
      rest = rest.subarray(end + 1);
    }
    if (rest.length) this.add(rest);
  };

  private readonly onError = (error: Error) => this.onerror?.(error);

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
  }

  private add(part: Buffer): void {
    this.size += part.length;
    this.chunks.push(part);
    if (this.size > this.maxLineBytes) this.tooLarge = true;
    if (this.tooLarge) this.chunks = [Buffer.concat(this.chunks).subarray(-TAIL_BYTES)];
  }

  private lineEnded(): void {
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    const { size, tooLarge } = this;
    this.chunks = [];
    this.size = 0;
    this.tooLarge = false;
    if (tooLarge) {
      const id = ID_AT_END.exec(line)?.[1];
      const message = `Parse error: the message is too large (${size} bytes; at most ${this.maxLineBytes})`;
      this.refuse(id === undefined ? null : (JSON.parse(id) as Id), ErrorCode.ParseError, message);
      return;
    }
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.refuse(null, ErrorCode.ParseError, 'Parse error: a message is one line of JSON');
      return;
    }
    const checked = JSONRPCMessageSchema.safeParse(parsed);
    if (checked.success) {
      this.onmessage?.(checked.data);
      return;
    }
    const problem = problemOf(parsed);
    this.refuse(
      problem?.id ?? null,
      problem?.code ?? ErrorCode.InvalidRequest,
      problem?.message ?? 'Invalid Request: not a request, a notification or a response',
    );
  }

  private refuse(id: Id, code: number, message: string): void {
    // JSON-RPC 2.0 §5: an answer whose request's id could not be read carries id null
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.onclose?.();
  }
}
