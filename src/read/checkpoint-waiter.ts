/**
 * Read-your-writes for an API process that runs no projectors (KurrentDB + MongoDB mode): wait
 * until every projector checkpoint in the shared read store reaches the position. One watcher per
 * process reads the checkpoints for every waiting request — a single query every `pollMs` while
 * anyone waits, however many wait — instead of one poll loop per request (issue 13 item 3).
 * Bounded: past its timeout a waiter gets ProjectionTimeout (the HTTP layer answers 503).
 * `caughtUpTo` is the same watch without a deadline, for work that must wait however long a
 * rebuild takes (the merge recovery); its signal ends it, and no poll runs for it after that.
 */
import type { ReadStore } from '../readstore/types.js';
import { ProjectionTimeout } from './waiters.js';

interface Waiter {
  position: bigint;
  /**
   * on the monotonic clock: a step of the wall clock neither cuts a wait short nor stretches it;
   * Infinity for `caughtUpTo`
   */
  deadline: number;
  timeoutMs: number;
  resolve(): void;
  reject(error: Error): void;
}

export function createCheckpointWaiter(
  readStore: ReadStore,
  projectorNames: readonly string[],
  options: { pollMs?: number; timeoutMs?: number } = {},
) {
  const pollMs = options.pollMs ?? 10;
  let reached = 0n;
  const waiting = new Set<Waiter>();
  let watching = false;

  async function lowest(): Promise<bigint> {
    const stored = await readStore.checkpoints();
    let low: bigint | undefined;
    for (const name of projectorNames) {
      const at = stored.get(name) ?? 0n;
      if (low === undefined || at < low) low = at;
    }
    return low ?? 0n;
  }

  function settle(): void {
    const now = performance.now();
    for (const waiter of waiting) {
      if (reached >= waiter.position) {
        waiting.delete(waiter);
        waiter.resolve();
      } else if (now >= waiter.deadline) {
        waiting.delete(waiter);
        waiter.reject(
          new ProjectionTimeout(
            `the read models did not reach position ${waiter.position} within ${waiter.timeoutMs} ms`,
          ),
        );
      }
    }
  }

  async function watch(): Promise<void> {
    if (watching) return;
    watching = true;
    try {
      while (waiting.size > 0) {
        try {
          const low = await lowest();
          if (low > reached) reached = low;
        } catch {
          // the store did not answer: the waiters wait on, up to their deadlines
        }
        settle();
        if (waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    } finally {
      watching = false;
    }
  }

  return {
    waitFor(position: bigint, timeoutMs = options.timeoutMs ?? 10_000): Promise<void> {
      if (reached >= position) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        waiting.add({
          position,
          deadline: performance.now() + timeoutMs,
          timeoutMs,
          resolve,
          reject,
        });
        void watch();
      });
    },

    /** true once every projector reached `position`, however long that takes; false on abort */
    caughtUpTo(position: bigint, signal?: AbortSignal): Promise<boolean> {
      if (reached >= position) return Promise.resolve(true);
      if (signal?.aborted) return Promise.resolve(false);
      return new Promise<boolean>((resolve, reject) => {
        const aborted = () => {
          waiting.delete(waiter);
          resolve(false);
        };
        const waiter: Waiter = {
          position,
          deadline: Number.POSITIVE_INFINITY,
          timeoutMs: Number.POSITIVE_INFINITY,
          resolve: () => {
            signal?.removeEventListener('abort', aborted);
            resolve(true);
          },
          reject,
        };
        signal?.addEventListener('abort', aborted, { once: true });
        waiting.add(waiter);
        void watch();
      });
    },
  };
}
