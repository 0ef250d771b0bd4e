/**
 * Catch-up subscription over the `$all` order. It pulls pages of committed rows after its
 * checkpoint and yields to the event loop between pages, so replaying a million events never
 * starves HTTP. At the head it sleeps until this process commits (in-process signal) or a slow
 * poll fires (appends by another process on the same file). The checkpoint advances over every
 * scanned row, matching or not, and positions only grow in commit order: no gaps, no duplicates.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import {
  type EventFilter,
  matchesFilter,
  type RecordedEvent,
  type Subscription,
} from '../types.js';
import { PAGE_SIZE, type Row, toRecorded } from './reader.js';

export interface CommitSignal {
  /** Resolves after the next commit in this process or after `timeoutMs`; `wake` ends it early. */
  wait(timeoutMs: number, exposeWake: (wake: () => void) => void): Promise<void>;
  notify(): void;
}

export function createCommitSignal(): CommitSignal {
  let waiters = new Set<() => void>();
  return {
    wait(timeoutMs, exposeWake) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, timeoutMs);
        timer.unref();
        function done() {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        }
        waiters.add(done);
        exposeWake(done);
      });
    },
    notify() {
      const woken = waiters;
      waiters = new Set();
      for (const wake of woken) wake();
    },
  };
}

export interface SubscriptionSource {
  pageAfter(after: bigint, limit: number): Row[];
  signal: CommitSignal;
  pollMs: number;
}

export function createSubscription(
  source: SubscriptionSource,
  options: { after?: bigint; filter?: EventFilter },
  onClose: () => void,
): Subscription {
  let closed = false;
  let wakeSleeper: (() => void) | undefined;

  async function* events(): AsyncGenerator<RecordedEvent> {
    let checkpoint = options.after ?? 0n;
    while (!closed) {
      const rows = source.pageAfter(checkpoint, PAGE_SIZE);
      for (const row of rows) {
        if (closed) return;
        checkpoint = BigInt(row[0]);
        if (matchesFilter({ streamId: row[1], type: row[4] }, options.filter))
          yield toRecorded(row);
      }
      if (closed) return;
      if (rows.length === PAGE_SIZE) await yieldToEventLoop();
      else {
        await source.signal.wait(source.pollMs, (wake) => {
          wakeSleeper = wake;
        });
        wakeSleeper = undefined;
      }
    }
  }

  const iterator = events();
  return {
    [Symbol.asyncIterator]: () => iterator,
    async close() {
      if (closed) return;
      closed = true;
      wakeSleeper?.();
      onClose();
      await iterator.return(undefined);
    },
  };
}
