/**
 * The projection engine's checkpointing: checkpoints advance in memory as events apply and are
 * flushed to the read store together with the projectors' writes (embedded: one SQLite
 * transaction), every `flushEvery` events and whenever the subscription goes quiet, at most
 * once per `flushIntervalMs` while events keep coming.
 */
import type { ReadStore } from '../readstore/types.js';
import { RETRY_MAX_MS, unreachable } from './outage.js';

/**
 * The embedded read store's flush is a synchronous SQLite transaction on the thread that answers
 * requests, and it rewrites every document changed since the last one: under a stream of writes
 * to the same items each flush costs about the same whether it covers 50 ms or 250 ms of them.
 * Measured with bench:api's update_item_status (alternating runs, four services on their own
 * seeded data, 4 rounds): 50 ms 3,012 req/s (p99 34–68 ms), 100 ms 3,440, 250 ms 3,699 (p99
 * 30–41 ms), 500 ms 3,759; against the previous code on a busier machine: 2,503 → 2,757 in 6
 * rounds (+10 %), 2,396 → 2,676 in 10 (+12 %, CPU per request −6 %). Past 250 ms the gain is
 * within the machine's noise while a crash replays more, so 250 ms. Read-your-writes is
 * unaffected: it waits for the documents in memory, not on disk.
 */
export const EMBEDDED_FLUSH_INTERVAL_MS = 250;

export interface FlushDeps {
  readStore: ReadStore;
  /** the engine's checkpoints by checkpointId, flushed as they are at each flush */
  checkpoints: ReadonlyMap<string, bigint>;
  flushEvery: number;
  flushIntervalMs: number;
  logger: Pick<Console, 'error'>;
  /** the engine is unsubscribing: its own last flush writes what a failed quiet one could not */
  closing(): boolean;
  /** an error that stops the engine */
  fail(error: Error): void;
}

export type Flusher = ReturnType<typeof createFlusher>;

export function createFlusher(deps: FlushDeps) {
  const { readStore, flushIntervalMs, logger } = deps;
  let unflushed = 0;
  // events applied and handed to a flush: counted per flush, not per event (+ unflushed: all)
  let handedToFlush = 0;
  let lastFlushAt = Number.NEGATIVE_INFINITY;
  let quietFlush: { timer: NodeJS.Immediate | NodeJS.Timeout; immediate: boolean } | undefined;
  // the quiet flush under way: stop() waits for it, or the stores close beneath it
  let quietFlushing: Promise<void> | undefined;
  /** why the last flush of the read models failed, while it does (readiness) */
  let flushFailure: string | null = null;

  /**
   * The flush under way. The next one waits for it: two in flight can land out of order (on
   * MongoDB, two pooled connections), and the older checkpoints stored last hold every API
   * process's read-your-writes wait below the newer event until another event comes.
   */
  let flushing: Promise<void> | undefined;

  async function flush(): Promise<void> {
    while (flushing) await flushing.catch(() => {});
    if (unflushed === 0) return;
    const pending = unflushed;
    unflushed = 0;
    handedToFlush += pending;
    lastFlushAt = performance.now();
    const mine = (async () => readStore.flush(new Map(deps.checkpoints)))();
    flushing = mine;
    try {
      await mine;
      flushFailure = null;
    } catch (error) {
      unflushed += pending; // flushed with the next one
      handedToFlush -= pending;
      if (unreachable(error)) flushFailure = (error as Error).message;
      throw error;
    } finally {
      if (flushing === mine) flushing = undefined;
    }
  }

  function runQuietFlush(): void {
    quietFlush = undefined;
    // a timer counts from the event loop's cached time, which a long turn leaves behind, so it
    // can fire a few ms early (2.3 ms seen on a loaded machine): wait out the rest of the interval
    const early = lastFlushAt + flushIntervalMs - performance.now();
    if (early > 0) {
      quietFlush = { timer: setTimeout(runQuietFlush, early), immediate: false };
      return;
    }
    quietFlushing = flush().catch((error) => {
      if (deps.closing()) return; // unsubscribe() flushes what this one could not
      if (!unreachable(error)) return deps.fail(error as Error);
      logger.error(`projection engine: flush failed (${(error as Error).message}); retrying`);
      quietFlush = { timer: setTimeout(runQuietFlush, RETRY_MAX_MS), immediate: false };
    });
  }

  function scheduleQuietFlush(): void {
    if (quietFlush) return;
    const wait = lastFlushAt + flushIntervalMs - performance.now();
    quietFlush =
      wait <= 0
        ? { timer: setImmediate(runQuietFlush), immediate: true }
        : { timer: setTimeout(runQuietFlush, wait), immediate: false };
  }

  function cancelQuietFlush(): void {
    if (!quietFlush) return;
    if (quietFlush.immediate) clearImmediate(quietFlush.timer as NodeJS.Immediate);
    else clearTimeout(quietFlush.timer as NodeJS.Timeout);
    quietFlush = undefined;
  }

  return {
    flush,

    /** one more event applied (before its waiters are released) */
    counted(): void {
      unflushed++;
    },

    /** after an event: flush now past `flushEvery` unflushed events, else once it goes quiet */
    async afterApply(): Promise<void> {
      if (unflushed >= deps.flushEvery) await flush();
      else scheduleQuietFlush();
    },

    /** the quiet flush neither runs later nor is still under way (before the last flush) */
    async settleQuiet(): Promise<void> {
      cancelQuietFlush();
      await quietFlushing;
    },

    /** every event applied so far, flushed or not */
    applied(): number {
      return handedToFlush + unflushed;
    },

    /** why the last flush failed, while it does */
    failure(): string | null {
      return flushFailure;
    },
  };
}
