/**
 * Messages between the main thread and the writer thread. Event data and metadata cross as
 * JSON text, serialised on the main thread, so the writer only binds strings.
 */
import type { ExpectedRevision } from '../types.js';

export interface WireEvent {
  id: string;
  type: string;
  data: string;
  metadata: string;
}

export interface WireAppend {
  streamId: string;
  expected: ExpectedRevision;
  events: WireEvent[];
}

export type WireResult =
  | { kind: 'appended'; nextExpectedRevision: number; position: bigint }
  | { kind: 'wrong-revision'; actual: number | 'no_stream' }
  | { kind: 'failed'; message: string };

export interface WriterInit {
  path: string;
}

export type ToWriter = { kind: 'batch'; id: number; appends: WireAppend[] } | { kind: 'close' };

export type FromWriter =
  | { kind: 'ready' }
  | { kind: 'open-failed'; message: string }
  | { kind: 'batch-done'; id: number; results: WireResult[] }
  /** the transaction as a whole did not commit (disk full, I/O error): every append in it failed */
  | { kind: 'batch-failed'; id: number; message: string }
  | { kind: 'closed' };
