/**
 * Where the hash chain (chain.ts) is stored: `es_chain`, one row per range of the log — the
 * hashes of the log's rows with positions `first`..`last`, in position order, 32 bytes each.
 * A batch of appends gets one range, so storing its chain costs one small insert instead of a
 * column in every row (measured with 100 writers: writing each row's hash into the row after
 * its batch committed cost 29 % of the append rate, one range per batch 1.3 % in the same run;
 * what the whole chain costs now: README, "Verifiable log"). Positions may have gaps (an
 * imported workspace keeps its positions), hence "the rows in the range", not a count.
 */
import type Database from 'better-sqlite3';
import { ROW_COLUMNS, type RowValue, VALUES_PER_ROW } from './batch-plan.js';
import { chainHash, GENESIS } from './chain.js';

export const CHAIN_TABLE_SQL = `CREATE TABLE IF NOT EXISTS es_chain (
  first  INTEGER PRIMARY KEY,
  last   INTEGER NOT NULL,
  hashes BLOB    NOT NULL
) STRICT;`;

/** How far the chain reaches: the last chained position (0: none) and its hash (hex). */
export interface ChainHead {
  through: number;
  last: string;
}

export const UNCHAINED: ChainHead = { through: 0, last: GENESIS };

/** The hashes of consecutive rows of the log, computed, to be stored as one range. */
export interface ChainRange {
  first: number;
  last: number;
  /** the rows' hashes, hex, concatenated */
  hex: string;
  /** the last row's hash */
  head: string;
}

const HASH_BYTES = 32;
/** Rows read per query when rows are chained from the file (migration, a crash's tail). */
const CHUNK = 5_000;

/** Chains rows given as flat values (VALUES_PER_ROW each, ROW_COLUMNS order) after `previous`. */
export function chainRange(previous: string, values: readonly RowValue[]): ChainRange {
  let head = previous;
  let hex = '';
  for (let at = 0; at < values.length; at += VALUES_PER_ROW) {
    head = chainHash(head, {
      streamId: values[at + 1] as string,
      revision: values[at + 2] as number,
      eventId: values[at + 3] as string,
      type: values[at + 4] as string,
      data: values[at + 5] as string,
      metadata: values[at + 6] as string,
    });
    hex += head;
  }
  return {
    first: values[0] as number,
    last: values[values.length - VALUES_PER_ROW] as number,
    hex,
    head,
  };
}

export interface ChainTable {
  /** The chain's end as stored (the range with the highest positions). */
  head(): ChainHead;
  /** Stores a computed range; returns the head after it. */
  write(range: ChainRange): ChainHead;
  /** Chains the log's rows after `head.through` up to `upTo`, read from the file. */
  extend(head: ChainHead, upTo: number): ChainHead;
}

export function createChainTable(db: Database.Database): ChainTable {
  const insert = db.prepare('INSERT INTO es_chain (first, last, hashes) VALUES (?, ?, unhex(?))');
  // only the last hash of the last range (an import's or a migration's range holds thousands)
  const lastRange = db
    .prepare(
      `SELECT last, substr(hashes, length(hashes) - ${HASH_BYTES - 1}) FROM es_chain ORDER BY first DESC LIMIT 1`,
    )
    .raw();
  const rowsBetween = db
    .prepare(
      `SELECT ${ROW_COLUMNS} FROM es_events WHERE position > ? AND position <= ? ORDER BY position LIMIT ${CHUNK}`,
    )
    .raw();

  const write = (range: ChainRange): ChainHead => {
    insert.run(range.first, range.last, range.hex);
    return { through: range.last, last: range.head };
  };

  return {
    head() {
      const row = lastRange.get() as [number, Buffer] | undefined;
      if (!row || row[1].length !== HASH_BYTES) return UNCHAINED;
      return { through: row[0], last: row[1].toString('hex') };
    },
    write,
    extend(head, upTo) {
      let reached = head;
      for (;;) {
        const rows = rowsBetween.all(reached.through, upTo) as RowValue[][];
        if (rows.length === 0) return reached;
        reached = write(chainRange(reached.last, rows.flat()));
        if (rows.length < CHUNK) return reached;
      }
    },
  };
}

/**
 * The stored hash of the rows at `positions` (a page read in position order, every row after
 * `after` up to the last of them), hex; empty for a row no range holds (not chained yet) or
 * beyond its range's hashes (the range was changed).
 */
export function hashesOf(
  db: Database.Database,
): (after: number, positions: readonly number[]) => string[] {
  // by `first` (the rowid) only: from the range holding the first row wanted to the last row's
  const ranges = db
    .prepare(
      `SELECT first, last, hashes FROM es_chain
       WHERE first >= coalesce((SELECT first FROM es_chain WHERE first <= ? ORDER BY first DESC LIMIT 1), 0)
         AND first <= ?
       ORDER BY first`,
    )
    .raw();
  const rowsBetween = db
    .prepare('SELECT count(*) FROM es_events WHERE position >= ? AND position <= ?')
    .pluck();
  return (after, positions) => {
    if (positions.length === 0) return [];
    const found = ranges.all(positions[0], positions[positions.length - 1]) as [
      number,
      number,
      Buffer,
    ][];
    const out: string[] = [];
    let at = 0;
    let index = -1;
    for (const position of positions) {
      while (at < found.length && found[at][1] < position) {
        at++;
        index = -1;
      }
      const range = found[at];
      if (!range || position < range[0]) {
        out.push('');
        continue;
      }
      // the range's rows before this one: those up to `after` were not read, count them
      if (index < 0) index = range[0] <= after ? (rowsBetween.get(range[0], after) as number) : 0;
      const from = index * HASH_BYTES;
      out.push(
        from + HASH_BYTES <= range[2].length
          ? range[2].toString('hex', from, from + HASH_BYTES)
          : '',
      );
      index++;
    }
    return out;
  };
}
