/**
 * An embedded read store that counts the writes made to each collection, so a test can say how
 * many a request costs. The store and everything above it run as in production; only the count
 * is added.
 */
import { interceptedStore, WRITE_METHODS } from './intercepted-store.js';
import type { ReadStore } from '../../src/readstore/types.js';

export { WRITE_METHODS } from './intercepted-store.js';
const WRITES = new Set<string>(WRITE_METHODS);

export interface CountedWrites {
  /** opens the store (again after a restart: same file) */
  open(): Promise<ReadStore>;
  /** the writes made to `collection` since the last `reset()` */
  writes(collection: string): number;
  reset(): void;
  /** removes the store's file */
  remove(): void;
}

export function countedWrites(): CountedWrites {
  const counts = new Map<string, number>();
  const store = interceptedStore('counted-writes-', (collection, method, proceed) => {
    if (WRITES.has(method)) counts.set(collection, (counts.get(collection) ?? 0) + 1);
    return proceed();
  });
  return {
    open: store.open,
    writes: (collection) => counts.get(collection) ?? 0,
    reset: () => counts.clear(),
    remove: store.remove,
  };
}
