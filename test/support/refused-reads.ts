/**
 * A read store whose reads of some collections are refused while `refused` says so, with the
 * error the MongoDB adapter turns a lost server into (ReadStoreUnavailableError). The embedded
 * store reads from memory and never refuses a read; this stands for a store that can, under the
 * code that reads it, which runs as in production.
 */
import {
  type Collection,
  type Doc,
  type ReadStore,
  ReadStoreUnavailableError,
} from '../../src/readstore/types.js';

const READS = new Set(['findOne', 'find', 'countDocuments', 'aggregate']);

export interface RefusedReads {
  store: ReadStore;
  /** which collections' reads are refused from now on (none: `() => false`) */
  refuse(which: (collection: string) => boolean): void;
}

export function refusedReads(store: ReadStore): RefusedReads {
  let refused = (_collection: string) => false;
  const refusing = <T extends Doc>(collection: Collection<T>): Collection<T> =>
    new Proxy(collection, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        if (!READS.has(String(key))) return value.bind(target);
        return (...args: unknown[]) =>
          refused(target.name)
            ? Promise.reject(new ReadStoreUnavailableError(`${target.name} cannot be read`))
            : value.apply(target, args);
      },
    });
  const wrapped = new Proxy(store, {
    get(target, key) {
      if (key === 'collection') {
        return <T extends Doc>(name: string) => refusing(target.collection<T>(name));
      }
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    store: wrapped,
    refuse(which) {
      refused = which;
    },
  };
}
