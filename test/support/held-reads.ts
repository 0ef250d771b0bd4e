/**
 * An embedded read store whose reads of one collection can be held until several have arrived,
 * so that requests racing each other meet at a chosen point whatever the timing: the in-process
 * twin of the MongoDB proxy's holdUntil (mongo-proxy.ts). The store and everything above it run
 * as in production; only the moment a read answers moves.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedReadStore } from '../../src/readstore/embedded/index.js';
import type { Collection, ReadStore } from '../../src/readstore/types.js';

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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'held-reads-'));
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

  function held<T extends object>(name: string, collection: T): T {
    return new Proxy(collection, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        if (property !== 'findOne') return value.bind(target);
        return async (...args: unknown[]) => {
          await arrive(name);
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
            return (name: string) => held(name, target.collection(name) as Collection);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    },
    hold(collection, count) {
      return new Promise((resolve) => {
        hold = { collection, count, held: [], all: resolve };
      });
    },
    remove() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
