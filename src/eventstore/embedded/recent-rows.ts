/**
 * The rows this process committed last, kept as the writer thread planned them, so that live
 * subscriptions (the projection engine, the webhook worker) and the stream index take a commit
 * without reading it back from the file.
 *
 * The writer numbers a batch's rows right after the highest committed position, under SQLite's
 * write lock (batch-plan.ts). So when a batch starts right after the run kept here, no other
 * process committed in between, and the run stays gap-free: if it holds position p + 1, the
 * rows after p, up to its end, are exactly the file's. A batch that does not follow (another
 * process committed in between, or an import) starts a new run; anything before it is read from
 * the file. Rows after the run's end (another process's, committed since) are the file's to
 * tell: a subscription finds them at its next poll, as before.
 */
import type { Row } from './reader.js';
import type { WireAppend, WireResult } from './writer-protocol.js';

/**
 * Rows kept: well past what the subscriptions take per wake (a batch), few enough that they
 * mostly die young. Half are dropped when the run outgrows it.
 */
const KEEP = 2_048;

export interface RecentRows {
  /** The rows of a committed batch, in position order (appends' results from the writer). */
  committed(appends: readonly WireAppend[], results: readonly WireResult[]): Row[];
  /** Up to `limit` rows after `position` when the run holds position + 1; otherwise undefined. */
  after(position: bigint, limit: number): Row[] | undefined;
  /** The last position this process committed (-1 before its first commit). */
  last(): bigint;
}

export function createRecentRows(): RecentRows {
  let base = 0;
  let run: Row[] = [];

  return {
    committed(appends, results) {
      const rows = rowsOf(appends, results);
      if (rows.length === 0) return rows;
      if (rows[0][0] !== base + run.length) {
        base = rows[0][0];
        run = [];
      }
      for (const row of rows) run.push(row);
      if (run.length > KEEP) {
        const drop = run.length - KEEP / 2;
        run = run.slice(drop);
        base += drop;
      }
      return rows;
    },
    last: () => BigInt(run.length === 0 ? -1 : base + run.length - 1),
    after(position, limit) {
      const from = Number(position) + 1 - base;
      if (from < 0 || from >= run.length) return undefined;
      return run.slice(from, from + limit);
    },
  };
}

/** Each appended event's row: an append's events end at its reported position and revision. */
function rowsOf(appends: readonly WireAppend[], results: readonly WireResult[]): Row[] {
  const rows: Row[] = [];
  for (const [i, append] of appends.entries()) {
    const result = results[i];
    const count = append.events.length;
    if (result?.kind !== 'appended' || count === 0) continue;
    const first = Number(result.position) - count + 1;
    const firstRevision = result.nextExpectedRevision - count + 1;
    for (const [k, event] of append.events.entries()) {
      rows.push([
        first + k,
        append.streamId,
        firstRevision + k,
        event.id,
        event.type,
        event.data,
        event.metadata,
      ]);
    }
  }
  return rows;
}
