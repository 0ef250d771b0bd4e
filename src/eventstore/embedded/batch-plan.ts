/**
 * Decides a whole batch before touching SQLite: which appends match their expected revision,
 * the revision and position of every event, and the rows to insert. Pure, so the writer can then
 * insert all rows with a few multi-row statements instead of one statement per event (measured:
 * the per-statement overhead was about half of the writer's CPU time per event).
 */
import type { ExpectedRevision } from '../types.js';
import type { WireAppend, WireResult } from './writer-protocol.js';

/** Values per row, in the order of ROW_COLUMNS (the order of a raw SELECT of them, too). */
export const ROW_COLUMNS = 'position, stream_id, revision, event_id, type, data, metadata';
export const VALUES_PER_ROW = 7;

/** A row's value: text or integer. */
export type RowValue = string | number;

export interface BatchPlan {
  results: WireResult[];
  /** flat row values, VALUES_PER_ROW per row, in position order */
  values: RowValue[];
  /** last revision per stream written by this batch, to publish once it committed */
  staged: Map<string, number>;
  /** the log's last position before these rows */
  after: number;
  /** highest position written, or `after` when nothing is written */
  lastPosition: number;
}

export function revisionMismatch(expected: ExpectedRevision, actual: number | undefined): boolean {
  if (expected === 'any') return false;
  if (expected === 'no_stream') return actual !== undefined;
  if (expected === 'stream_exists') return actual === undefined;
  return actual !== expected;
}

/**
 * `lastRevision` answers from committed rows; `after` is the highest committed position (the
 * writer holds SQLite's write lock, so nobody else can take the positions after it).
 */
export function planBatch(
  appends: readonly WireAppend[],
  lastRevision: (streamId: string) => number | undefined,
  after: number,
): BatchPlan {
  const results: WireResult[] = [];
  const values: RowValue[] = [];
  const staged = new Map<string, number>();
  let position = after;
  for (const append of appends) {
    const actual = staged.get(append.streamId) ?? lastRevision(append.streamId);
    if (revisionMismatch(append.expected, actual)) {
      results.push({ kind: 'wrong-revision', actual: actual ?? 'no_stream' });
      continue;
    }
    let revision = actual ?? -1;
    for (const event of append.events) {
      revision += 1;
      position += 1;
      values.push(
        position,
        append.streamId,
        revision,
        event.id,
        event.type,
        event.data,
        event.metadata,
      );
    }
    if (append.events.length > 0) staged.set(append.streamId, revision);
    results.push({
      kind: 'appended',
      nextExpectedRevision: revision,
      position: BigInt(append.events.length > 0 ? position : 0),
    });
  }
  return { results, values, staged, after, lastPosition: position };
}

/** An event copied from another log with the position it had there (workspace import). */
export interface ImportedRow {
  position: number;
  streamId: string;
  revision: number;
  id: string;
  type: string;
  data: string;
  metadata: string;
}

/**
 * Rows of an import keep their positions, so an imported workspace answers with the same
 * positions (history, audit) as where it came from. They must come after everything in the log,
 * in position order, and continue each stream's revisions without a gap; the writer chains them
 * in the same transaction. Throws on the first row that does not fit, so nothing of the chunk is written.
 */
export function planImport(
  rows: readonly ImportedRow[],
  lastRevision: (streamId: string) => number | undefined,
  after: number,
): BatchPlan {
  const values: RowValue[] = [];
  const staged = new Map<string, number>();
  let position = after;
  for (const row of rows) {
    if (!Number.isSafeInteger(row.position) || row.position <= position) {
      throw new RangeError(
        `imported position ${row.position} does not follow position ${position} of the log`,
      );
    }
    const expected = (staged.get(row.streamId) ?? lastRevision(row.streamId) ?? -1) + 1;
    if (row.revision !== expected) {
      throw new RangeError(
        `imported ${row.streamId} revision ${row.revision} at position ${row.position}; the log expects revision ${expected}`,
      );
    }
    position = row.position;
    values.push(position, row.streamId, row.revision, row.id, row.type, row.data, row.metadata);
    staged.set(row.streamId, row.revision);
  }
  return { results: [], values, staged, after, lastPosition: position };
}
