/**
 * An embedded read store whose reads of one collection can be held until several have arrived,
 * so that requests racing each other meet at a chosen point whatever the timing: the in-process
 * twin of the MongoDB proxy's holdUntil (mongo-proxy.ts). The store and everything above it run
 * as in production; only the moment a read answers moves.
 */
import { type Interceptor, interceptedStore, interceptIn } from './intercepted-store.js';
import type { ReadStore } from '../../src/readstore/types.js';

export interface HeldReads {
  /** opens the store (again after a restart: same file) */
  open(): Promise<ReadStore>;
  /**
   * Holds the next `count` findOne on the collection named `collection`. Resolves once all are
   * held, with what lets each go on, in the order they arrived. `answered`: each read is made
   * when it arrives and only its answer is held, so it answers what the store held then (a read
   * that crossed a slow network while another request wrote). `method`: another call of the
   * collection to hold instead (a `deleteOne` that reaches the store late).
   */
  hold(
    collection: string,
    count: number,
    options?: { answered?: boolean; method?: string },
  ): Promise<(() => void)[]>;
  /** removes the store's file */
  remove(): void;
}

interface Hold {
  collection: string;
  method: string;
  answered: boolean;
  count: number;
  held: (() => void)[];
  all: (releases: (() => void)[]) => void;
}

/** the holds and the interceptor that applies them, whichever way the calls are intercepted */
function holds() {
  let hold: Hold | null = null;

  /** resolves when the read held at `at` may go on (or answer) */
  function arrive(at: Hold): Promise<void> {
    const waiting = new Promise<void>((resolve) => at.held.push(resolve));
    if (at.held.length === at.count) {
      hold = null;
      at.all(at.held);
    }
    return waiting;
  }

  const intercept: Interceptor = (collection, method, proceed) => {
    const at = hold;
    if (at?.collection !== collection || at.method !== method) return proceed();
    if (!at.answered) return arrive(at).then(proceed);
    const answer = Promise.resolve(proceed());
    answer.catch(() => undefined); // a failed read is answered once let go, not reported early
    return arrive(at).then(() => answer);
  };
  const start: HeldReads['hold'] = (collection, count, options = {}) =>
    new Promise((resolve) => {
      const answered = options.answered ?? false;
      const method = options.method ?? 'findOne';
      hold = { collection, method, answered, count, held: [], all: resolve };
    });
  return { intercept, hold: start };
}

export function heldReads(): HeldReads {
  const { intercept, hold } = holds();
  const store = interceptedStore('held-reads-', intercept);
  return { open: store.open, hold, remove: store.remove };
}

/** The same holds on the `collections` of a store already open (intercepted-store.ts `interceptIn`). */
export function heldReadsIn(store: ReadStore, collections: string[]): Pick<HeldReads, 'hold'> {
  const { intercept, hold } = holds();
  interceptIn(store, collections, intercept);
  return { hold };
}
