/**
 * The (stream, revision) index lives in memory, not in SQLite. A SQLite index on it would make
 * every grouped commit rewrite one random leaf page per distinct stream in the group (about four
 * times the bytes of the events themselves); without it a commit only appends at the table's end.
 *
 * Both sides keep their own copy, built at open by one scan of (position, stream, revision) and
 * caught up from the last position they indexed — rows are only ever appended, with positions
 * growing in commit order, so "rows after P" is all another process (or thread) can have added.
 */
import type Database from 'better-sqlite3';

export type IndexVisitor = (position: number, streamId: string, revision: number) => void;

/**
 * Rows per query: `all()` on chunks costs ~25 % less per row than `iterate()` (measured on 1M
 * rows); small chunks keep the garbage of the scan young (RSS after open ~35 MB lower than with
 * 20k-row chunks).
 */
const SCAN_CHUNK = 2_000;

/**
 * Returns `catchUp(after, visit)`: visits every row with a position above `after`, in position
 * order, and returns the highest position visited (or `after` when there is none).
 */
export function createTailScanner(
  db: Database.Database,
): (after: number, visit: IndexVisitor) => number {
  const tail = db
    .prepare(
      `SELECT position, stream_id, revision FROM es_events WHERE position > ? ORDER BY position LIMIT ${SCAN_CHUNK}`,
    )
    .raw();
  return (after, visit) => {
    let last = after;
    for (;;) {
      const rows = tail.all(last) as [number, string, number][];
      for (const row of rows) visit(row[0], row[1], row[2]);
      if (rows.length > 0) last = rows[rows.length - 1][0];
      if (rows.length < SCAN_CHUNK) return last;
    }
  };
}

/** Main-thread index: every stream's positions, indexed by revision. */
export interface StreamPositions {
  /** Positions of the stream's events, `positions[revision]`; undefined for an unknown stream. */
  get(streamId: string): readonly number[] | undefined;
  /** Indexes rows committed since the last call (by any thread or process). */
  catchUp(): void;
  /**
   * Indexes rows this process just committed, when they follow the last indexed position (no
   * other process committed in between); otherwise the next catchUp reads them.
   */
  record(rows: readonly (readonly [number, string, number, ...unknown[]])[]): void;
}

export function createStreamPositions(db: Database.Database): StreamPositions {
  const scan = createTailScanner(db);
  const streams = new Map<string, number[]>();
  let indexed = 0;
  const visit: IndexVisitor = (position, streamId, revision) => {
    const positions = streams.get(streamId);
    if (positions) positions[revision] = position;
    else {
      const fresh: number[] = [];
      fresh[revision] = position;
      streams.set(streamId, fresh);
    }
  };
  const catchUp = () => {
    indexed = scan(indexed, visit);
  };
  catchUp();
  return {
    get: (streamId) => streams.get(streamId),
    catchUp,
    record(rows) {
      if (rows.length === 0 || rows[0][0] !== indexed + 1) return;
      for (const row of rows) visit(row[0], row[1], row[2]);
      indexed = rows[rows.length - 1][0];
    },
  };
}
