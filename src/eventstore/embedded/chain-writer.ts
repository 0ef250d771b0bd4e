/**
 * The writer thread's side of the hash chain (chain.ts, chain-table.ts). A batch's hashes are
 * computed after its appends were acknowledged and stored by the writer's NEXT transaction, as
 * its first insert; when no transaction follows within CHAIN_SEAL_MS, by one of their own.
 *
 * Why: every append of a group waits for the whole group's commit, so work the writer does
 * before the commit lengthens every append (hashing in the commit path cost the 100-writer
 * append rate ~10 %). After the acknowledgement the writer thread is idle until the next batch
 * comes (the main thread is answering the last one), and the hashing fits in that gap. A first
 * try measured, in one run of 6 alternating rounds, 11.2 % slower with the hashes in each commit
 * and 1.3 % with one range per batch stored the transaction after; this code measures about
 * 4–5 % in `bench:store`'s 30 pairs. Storing many batches' ranges with one insert, or hashing on
 * a thread of its own, measured no better (README, "Verifiable log").
 *
 * What it means: the newest rows (the last batch, at most CHAIN_SEAL_MS old when writes pause)
 * are not chained yet; `verify` and `export` seal the chain first (`seal` below), and a writer
 * that opens a log whose last rows are not chained (a crash in that gap) chains them at once,
 * from the rows in the file. Rows committed by another process sharing the file are chained
 * the same way: every transaction first brings the chain up to every row committed before it,
 * under SQLite's write lock, so exactly one writer stores each range.
 */
import type Database from 'better-sqlite3';
import type { RowValue } from './batch-plan.js';
import { type ChainHead, type ChainRange, chainRange, createChainTable } from './chain-table.js';

/** The longest a committed row stays unchained while no other write follows it. */
export const CHAIN_SEAL_MS = 100;

export interface ChainWriter {
  /**
   * First thing in a transaction, under the write lock: stores the hashes of every row committed
   * up to `upTo` not yet chained. Starts from the chain as stored, which another process (or a
   * `verify` run) may have moved. Returns the head to publish once the transaction commits
   * (undefined without a chain).
   */
  seal(upTo: number): ChainHead | undefined;
  /** Chains rows written in this transaction at once (an import), after `staged`. */
  chainNow(staged: ChainHead | undefined, values: readonly RowValue[]): ChainHead | undefined;
  /** The transaction that sealed to `staged` committed. */
  publish(staged: ChainHead | undefined): void;
  /** A batch of rows after position `after` committed and was acknowledged: hash it now. */
  acknowledged(after: number, values: readonly RowValue[]): void;
  /** Rows up to `indexed` are committed and some of them are not chained. */
  behind(indexed: number): boolean;
}

/** `enabled: false` writes no chain at all (benchmarks measuring its cost only). */
export function createChainWriter(db: Database.Database, enabled: boolean): ChainWriter {
  const table = createChainTable(db);
  let head = enabled ? table.head() : undefined;
  /** hashes of this writer's last batch, computed after its acknowledgement, not stored yet */
  let pending: (ChainRange & { after: number }) | undefined;

  return {
    seal(upTo) {
      if (!head) return undefined;
      let staged = table.head();
      if (pending && pending.after === staged.through) staged = table.write(pending);
      return staged.through < upTo ? table.extend(staged, upTo) : staged;
    },
    chainNow(staged, values) {
      if (!staged || values.length === 0) return staged;
      return table.write(chainRange(staged.last, values));
    },
    publish(staged) {
      if (!staged) return;
      head = staged;
      if (pending && pending.last <= head.through) pending = undefined;
    },
    acknowledged(after, values) {
      if (!head || values.length === 0 || head.through !== after) return;
      pending = { after, ...chainRange(head.last, values) };
    },
    behind(indexed) {
      return head !== undefined && head.through < indexed;
    },
  };
}
