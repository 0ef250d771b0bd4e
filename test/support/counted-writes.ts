/**
 * An embedded read store that counts the writes made to each collection, so a test can say how
 * many a request costs. The store and everything above it run as in production; only the count
 * is added.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedReadStore } from '../../src/readstore/embedded/index.js';
import type { Collection, ReadStore } from '../../src/readstore/types.js';

const WRITES = new Set([
  'insertOne',
  'replaceOne',
  'updateOne',
  'updateMany',
  'deleteOne',
  'deleteMany',
]);

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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'counted-writes-'));
  const counts = new Map<string, number>();

  function counted<T extends object>(name: string, collection: T): T {
    return new Proxy(collection, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        if (!WRITES.has(String(property))) return value.bind(target);
        return (...args: unknown[]) => {
          counts.set(name, (counts.get(name) ?? 0) + 1);
          return value.apply(target, args);
        };
      },
    });
  }

  return {
    async open() {
      const store = await openEmbeddedReadStore({ path: path.join(dir, 'data.sqlite') });
      return new Proxy(store, {
        get(target, property) {
          const value = Reflect.get(target, property, target);
          if (property === 'collection')
            return (name: string) => counted(name, target.collection(name) as Collection);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    },
    writes: (collection) => counts.get(collection) ?? 0,
    reset: () => counts.clear(),
    remove() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
