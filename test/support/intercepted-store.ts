/**
 * An embedded read store in a temporary folder whose collections' calls pass through one
 * function first: tests count them (counted-writes.ts) or hold them (held-reads.ts). The store
 * and everything above it run as in production; only what the interceptor adds changes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedReadStore } from '../../src/readstore/embedded/index.js';
import type { Collection, ReadStore } from '../../src/readstore/types.js';

/** sees each call of a collection's method, with its arguments; `proceed` makes it */
export type Interceptor = (
  collection: string,
  method: string,
  proceed: () => unknown,
  args: readonly unknown[],
) => unknown;

export interface InterceptedStore {
  /** opens the store (again after a restart: same file) */
  open(): Promise<ReadStore>;
  /** removes the store's file */
  remove(): void;
}

export function interceptedStore(prefix: string, intercept: Interceptor): InterceptedStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));

  function wrap<T extends object>(name: string, collection: T): T {
    return new Proxy(collection, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          intercept(name, String(property), () => value.apply(target, args), args);
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
            return (name: string) => wrap(name, target.collection(name) as Collection);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    },
    remove() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** the read store's methods that write documents */
export const WRITE_METHODS = [
  'insertOne',
  'replaceOne',
  'updateOne',
  'updateMany',
  'deleteOne',
  'deleteMany',
] as const;

/** the document methods of a collection handle (the read store's port) */
const COLLECTION_METHODS = ['findOne', 'find', 'countDocuments', 'aggregate', ...WRITE_METHODS];

/**
 * The same interception on the `collections` of a store already open (a whole runtime's, which
 * opens its own): their handles are wrapped in place. The embedded store hands out one handle
 * per collection, so this reaches code that took its handle before.
 */
export function interceptIn(store: ReadStore, collections: string[], intercept: Interceptor): void {
  for (const name of collections) {
    const handle = store.collection(name) as unknown as Record<string, unknown>;
    for (const method of COLLECTION_METHODS) {
      const original = (handle[method] as (...args: unknown[]) => unknown).bind(handle);
      handle[method] = (...args: unknown[]) =>
        intercept(name, method, () => original(...args), args);
    }
  }
}
