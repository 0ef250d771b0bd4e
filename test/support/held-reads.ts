/**
 * An embedded read store whose reads of one collection can be held until several have arrived,
 * so that requests racing each other meet at a chosen point whatever the timing: the in-process
 * twin of the MongoDB proxy's holdUntil (mongo-proxy.ts). The store and everything above it run
 * as in production; only the moment a read answers moves.
 */
import { interceptedStore } from './intercepted-store.js';
import type { ReadStore } from '../../src/readstore/types.js';

export interface HeldReads {
  /** opens the store (again after a restart: same file) */
  open(): Promise<ReadStore>;
  /**
   * Holds the next `count` findOne on the collection named `collection`. Resolves once all are
   * held, with what lets each go on, in the order they arrived.
   */
  hold(collection: string, count: number): Promise<(() => void)[]>;
  /** removes the store's file */
  remove(): void;
}

interface Hold {
  collection: string;
  count: number;
  held: (() => void)[];
  all: (releases: (() => void)[]) => void;
}

export function heldReads(): HeldReads {
  let hold: Hold | null = null;

  /** resolves when the read of `collection` may go on */
  function arrive(collection: string): Promise<void> | void {
    const at = hold;
    if (at?.collection !== collection) return;
    const waiting = new Promise<void>((resolve) => at.held.push(resolve));
    if (at.held.length === at.count) {
      hold = null;
      at.all(at.held);
    }
    return waiting;
  }

  const store = interceptedStore('held-reads-', (collection, method, proceed) => {
    if (method !== 'findOne') return proceed();
    return (async () => {
      await arrive(collection);
      return proceed();
    })();
  });
  return {
    open: store.open,
    hold(collection, count) {
      return new Promise((resolve) => {
        hold = { collection, count, held: [], all: resolve };
      });
    },
    remove: store.remove,
  };
}
