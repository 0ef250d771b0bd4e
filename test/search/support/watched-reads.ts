/**
 * A read store whose collections record which scope each `find` loads, and can hold one read's
 * answer back: the rows are read when it is called, answered only when the test releases it — a
 * load that read the store before a write, and finishes after it.
 */
import type { Collection, Doc, ReadStore } from '../../../src/readstore/types.js';

export interface WatchedReads {
  store: ReadStore;
  /** the scope of every `find` filtered by scope, in call order */
  loads: string[];
  /** holds the next `find`'s answer; the returned function releases it */
  holdNextRead(): () => void;
}

export function watchedReads(inner: ReadStore): WatchedReads {
  const loads: string[] = [];
  let held: Promise<void> | undefined;
  const watch = <T extends Doc>(collection: Collection<T>): Collection<T> => ({
    ...collection,
    async find(filter, options) {
      if (typeof filter.scope === 'string') loads.push(filter.scope);
      const gate = held;
      held = undefined;
      const rows = await collection.find(filter, options);
      await gate;
      return rows;
    },
  });
  const store: ReadStore = {
    ...inner,
    collection: <T extends Doc>(name: string) => watch(inner.collection<T>(name)),
  };
  return {
    store,
    loads,
    holdNextRead() {
      let release = () => {};
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
      return release;
    },
  };
}
