/**
 * Messages between the main thread and the writer thread. Event data and metadata cross as
 * JSON text, serialised on the main thread, so the writer only binds strings.
 *
 * A batch crosses packed: one flat array of strings plus typed arrays of numbers, and results
 * come back as one Float64Array (transferred, not copied). Structured cloning an array of
 * append objects and result objects (with bigint positions) cost ~2.3 µs per append per round
 * trip; packed, ~0.6 µs (measured with 100-append batches) — at 100 writers that was a quarter
 * of the writer thread's time.
 */
import type { ExpectedRevision } from '../types.js';
import type { ImportedRow } from './batch-plan.js';

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
  /** false: rows carry no hash (benchmarks measuring the chain's cost only) */
  chain?: boolean;
}

/** Appends in queue order: per append its stream, expected revision and event count. */
export interface PackedBatch {
  /** per append: streamId, then id, type, data, metadata of each event */
  strings: string[];
  /** per append: expected revision, or ANY / NO_STREAM / STREAM_EXISTS */
  expected: Float64Array;
  eventCounts: Uint32Array;
}

/** Per append three numbers: outcome, revision, position. Failure messages by append index. */
export interface PackedResults {
  outcomes: Float64Array;
  failures: [number, string][];
}

export type ToWriter =
  | { kind: 'batch'; id: number; batch: PackedBatch }
  | { kind: 'import'; id: number; rows: ImportedRow[] }
  /** store the hash chain of every committed row now (chain-writer.ts) */
  | { kind: 'seal'; id: number }
  | { kind: 'close' };

export type FromWriter =
  | { kind: 'ready' }
  | { kind: 'open-failed'; message: string }
  | { kind: 'batch-done'; id: number; results: PackedResults }
  /** an import chunk committed, or the chain was sealed; `position`: the log's last position */
  | { kind: 'done'; id: number; position: number }
  /** the transaction as a whole did not commit (disk full, I/O error, an import chunk that does
   * not fit, a seal that could not write): every append in it failed */
  | { kind: 'batch-failed'; id: number; message: string }
  | { kind: 'closed' };

const ANY = -1;
const NO_STREAM = -2;
const STREAM_EXISTS = -3;
const APPENDED = 0;
const WRONG_REVISION = 1;
const FAILED = 2;

function encodeExpected(expected: ExpectedRevision): number {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return expected;
  }
}

function decodeExpected(code: number): ExpectedRevision {
  if (code === ANY) return 'any';
  if (code === NO_STREAM) return 'no_stream';
  if (code === STREAM_EXISTS) return 'stream_exists';
  return code;
}

export function packBatch(appends: readonly WireAppend[]): PackedBatch {
  const strings: string[] = [];
  const expected = new Float64Array(appends.length);
  const eventCounts = new Uint32Array(appends.length);
  for (const [i, append] of appends.entries()) {
    strings.push(append.streamId);
    for (const event of append.events)
      strings.push(event.id, event.type, event.data, event.metadata);
    expected[i] = encodeExpected(append.expected);
    eventCounts[i] = append.events.length;
  }
  return { strings, expected, eventCounts };
}

export function unpackBatch(batch: PackedBatch): WireAppend[] {
  const { strings, expected, eventCounts } = batch;
  const appends: WireAppend[] = [];
  let at = 0;
  for (let i = 0; i < eventCounts.length; i++) {
    const streamId = strings[at++];
    const events: WireEvent[] = [];
    for (let n = 0; n < eventCounts[i]; n++, at += 4) {
      events.push({
        id: strings[at],
        type: strings[at + 1],
        data: strings[at + 2],
        metadata: strings[at + 3],
      });
    }
    appends.push({ streamId, expected: decodeExpected(expected[i]), events });
  }
  return appends;
}

/** Positions travel as doubles: exact up to 2^53, far beyond any event log on one disk. */
export function packResults(results: readonly WireResult[]): PackedResults {
  const outcomes = new Float64Array(results.length * 3);
  const failures: [number, string][] = [];
  for (const [i, result] of results.entries()) {
    switch (result.kind) {
      case 'appended':
        outcomes.set([APPENDED, result.nextExpectedRevision, Number(result.position)], i * 3);
        break;
      case 'wrong-revision':
        outcomes.set(
          [WRONG_REVISION, result.actual === 'no_stream' ? -1 : result.actual, 0],
          i * 3,
        );
        break;
      case 'failed':
        outcomes.set([FAILED, 0, 0], i * 3);
        failures.push([i, result.message]);
        break;
      default: {
        const _exhaustive: never = result;
        return _exhaustive;
      }
    }
  }
  return { outcomes, failures };
}

export function unpackResult(results: PackedResults, index: number): WireResult {
  const at = index * 3;
  const outcome = results.outcomes[at];
  const revision = results.outcomes[at + 1];
  if (outcome === APPENDED) {
    return {
      kind: 'appended',
      nextExpectedRevision: revision,
      position: BigInt(results.outcomes[at + 2]),
    };
  }
  if (outcome === WRONG_REVISION) {
    return { kind: 'wrong-revision', actual: revision < 0 ? 'no_stream' : revision };
  }
  const message = results.failures.find(([i]) => i === index)?.[1] ?? 'unknown failure';
  return { kind: 'failed', message };
}
