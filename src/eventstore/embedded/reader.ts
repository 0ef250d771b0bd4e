/**
 * Reads on the main thread over a connection of their own. WAL lets them run while the writer
 * thread commits; each statement sees one committed snapshot. A stream is read through the
 * in-memory stream index (stream-index.ts): its positions, then the rows by rowid.
 */
import type Database from 'better-sqlite3';
import {
  type EventFilter,
  matchesFilter,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
} from '../types.js';
import { hashesOf } from './chain-table.js';
import { createStreamPositions } from './stream-index.js';

/** [position, stream_id, revision, event_id, type, data, metadata] — raw rows skip object building. */
export type Row = [number, string, number, string, string, string, string];

const COLUMNS = 'position, stream_id, revision, event_id, type, data, metadata';
/** Rows scanned per query when a filter may discard most of them. */
export const PAGE_SIZE = 1000;

export function toRecorded(row: Row): RecordedEvent {
  return {
    id: row[3],
    type: row[4],
    data: JSON.parse(row[5]),
    metadata: JSON.parse(row[6]),
    streamId: row[1],
    revision: row[2],
    position: BigInt(row[0]),
  };
}

/** A row exactly as stored, with its chain hash (hex; empty when it is not chained, yet or any more). */
export interface StoredRow {
  position: bigint;
  streamId: string;
  revision: number;
  id: string;
  type: string;
  data: string;
  metadata: string;
  hash: string;
}

export interface Reader {
  /** Up to `limit` stored rows after `after`, in position order, bytes untouched. */
  storedAfter(after: bigint, limit: number): StoredRow[];
  readStream(streamId: string, options?: ReadStreamOptions): RecordedEvent[];
  readAll(options?: ReadAllOptions): RecordedEvent[];
  /** Up to `limit` rows after `after`, unfiltered, in position order (subscriptions page on it). */
  pageAfter(after: bigint, limit: number): Row[];
  headPosition(): bigint;
  /** The head, and the positions after `lowest` back from it (newest first, at most `limit`). */
  newestAfter(lowest: bigint, limit: number): { head: bigint; newestFirst: bigint[] };
  /** Rows this process just committed, in position order: the stream index takes them as they are. */
  indexCommitted(rows: readonly Row[]): void;
}

export function createReader(db: Database.Database): Reader {
  const streams = createStreamPositions(db);
  // One statement, so one snapshot, for the whole stream; positions arrive as a JSON array.
  const byPositionsAsc = db
    .prepare(
      `SELECT ${COLUMNS} FROM es_events WHERE position IN (SELECT value FROM json_each(?)) ORDER BY position ASC`,
    )
    .raw();
  const byPositionsDesc = db
    .prepare(
      `SELECT ${COLUMNS} FROM es_events WHERE position IN (SELECT value FROM json_each(?)) ORDER BY position DESC`,
    )
    .raw();
  const after = db
    .prepare(`SELECT ${COLUMNS} FROM es_events WHERE position > ? ORDER BY position LIMIT ?`)
    .raw();
  const head = db.prepare('SELECT coalesce(max(position), 0) FROM es_events').pluck();
  // the rowid's b-tree walked back from the end: at most `limit` rows, however long the log
  const newest = db
    .prepare('SELECT position FROM es_events WHERE position > ? ORDER BY position DESC LIMIT ?')
    .pluck();
  const hashes = hashesOf(db);

  const pageAfter = (from: bigint, limit: number) => after.all(from, limit) as Row[];

  function readFiltered(from: bigint, maxCount: number, filter: EventFilter): RecordedEvent[] {
    const out: RecordedEvent[] = [];
    let cursor = from;
    while (out.length < maxCount) {
      const rows = pageAfter(cursor, PAGE_SIZE);
      for (const row of rows) {
        if (out.length < maxCount && matchesFilter({ streamId: row[1], type: row[4] }, filter)) {
          out.push(toRecorded(row));
        }
      }
      if (rows.length < PAGE_SIZE) break;
      cursor = BigInt(rows[rows.length - 1][0]);
    }
    return out;
  }

  return {
    storedAfter(from, limit) {
      // one snapshot for the rows and their hashes
      const rows = db.transaction(() => {
        const page = after.all(from, limit) as Row[];
        return {
          page,
          hashes: hashes(
            Number(from),
            page.map((row) => row[0]),
          ),
        };
      })();
      return rows.page.map((row, i) => ({
        position: BigInt(row[0]),
        streamId: row[1],
        revision: row[2],
        id: row[3],
        type: row[4],
        data: row[5],
        metadata: row[6],
        hash: rows.hashes[i],
      }));
    },
    readStream(streamId, options = {}) {
      const limit = options.maxCount ?? Number.POSITIVE_INFINITY;
      if (limit <= 0) return [];
      streams.catchUp();
      const positions = streams.get(streamId);
      if (!positions) return [];
      const backwards = options.direction === 'backwards';
      const wanted = selectPositions(positions, backwards, options.fromRevision, limit);
      if (wanted.length === 0) return [];
      const statement = backwards ? byPositionsDesc : byPositionsAsc;
      return (statement.all(JSON.stringify(wanted)) as Row[]).map(toRecorded);
    },
    readAll(options = {}) {
      const from = options.after ?? 0n;
      const maxCount = options.maxCount ?? Number.POSITIVE_INFINITY;
      if (maxCount <= 0) return [];
      if (options.filter && hasConditions(options.filter))
        return readFiltered(from, maxCount, options.filter);
      return pageAfter(from, Number.isFinite(maxCount) ? maxCount : -1).map(toRecorded);
    },
    pageAfter,
    headPosition() {
      return BigInt(head.get() as number);
    },
    newestAfter(lowest, limit) {
      // one snapshot, so nothing counted lies beyond the head reported with it
      return db.transaction(() => ({
        head: BigInt(head.get() as number),
        newestFirst: (newest.all(lowest, limit) as number[]).map(BigInt),
      }))();
    },
    indexCommitted: streams.record,
  };
}

function hasConditions(filter: EventFilter): boolean {
  return Boolean(filter.streamPrefixes?.length || filter.eventTypes?.length);
}

/** The positions of revisions from `fromRevision` on (or down), at most `limit` of them. */
function selectPositions(
  positions: readonly number[],
  backwards: boolean,
  fromRevision: number | undefined,
  limit: number,
): number[] {
  const wanted: number[] = [];
  if (backwards) {
    const start = Math.min(Math.floor(fromRevision ?? positions.length - 1), positions.length - 1);
    for (let revision = start; revision >= 0 && wanted.length < limit; revision--) {
      const position = positions[revision];
      if (position !== undefined) wanted.push(position);
    }
  } else {
    for (
      let revision = Math.max(0, Math.ceil(fromRevision ?? 0));
      revision < positions.length && wanted.length < limit;
      revision++
    ) {
      const position = positions[revision];
      if (position !== undefined) wanted.push(position);
    }
  }
  return wanted;
}
