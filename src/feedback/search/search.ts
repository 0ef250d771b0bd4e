/**
 * The feedback board's semantic search: item and person vector indexes over the read store,
 * their background indexers, the projector that feeds them, and the queries the operations run.
 *
 * Delay until search sees a new or edited item (or person): the projector stages its text as the
 * event is projected — before the write's HTTP answer, which waits for the projections — and
 * the indexer embeds it after at most `delayMs` (100 ms) plus the batches queued ahead of it:
 * about 0.6 s in steady state on the bundled encoder (src/search/indexer.ts). A process that
 * does not run the indexer itself (API role) reloads vectors at most `cacheTtlMs` old.
 */
import type { Projector } from '../../../projections/shared/projector.js';
import type { Logger } from '../../platform/logger.js';
import type { ReadStore } from '../../readstore/types.js';
import type { Embedder } from '../../search/embedder.js';
import { createIndexer, type IndexProgress, indexProgress } from '../../search/indexer.js';
import type { IdFilter, SearchHit } from '../../search/scope-arena.js';
import type { ScopeCacheBounds } from '../../search/scope-caches.js';
import { notesWeakMatchThreshold } from '../../search/thresholds.js';
import { createVectorIndex } from '../../search/vector-index.js';
import {
  feedbackSearchProjector,
  ITEM_VECTORS,
  PEOPLE_VECTORS,
  type SearchTargets,
} from './projector.js';

export interface FeedbackSearchOptions {
  /** the model, or a handle that loads it in the background (src/search/create-embedder.ts) */
  embedder: Embedder | { get(): Promise<Embedder> };
  logger?: Pick<Logger, 'info' | 'warn'>;
  /** indexer batching wait (default 100 ms) */
  delayMs?: number;
  /** set when another process runs the indexer (API role): bounds how stale vectors may be */
  cacheTtlMs?: number;
  /** how many scopes and bytes of vectors each index keeps loaded (SEARCH_CACHE_*) */
  cacheBounds?: ScopeCacheBounds;
  /**
   * summarize_feedback's `q`: the lowest score that counts as a match. Default: the weak-match
   * threshold calibrated for the serving provider (src/search/thresholds.ts: 0.40 on the
   * bundled encoder, 0.30 on all-MiniLM-L6-v2).
   */
  matchThreshold?: number;
}

export interface FeedbackSearch {
  /** list after the items and people projectors */
  projectors(): Projector[];
  /** best hits among items of the workspace that `allow` admits, best first */
  searchItems(
    store: ReadStore,
    query: { workspaceId: string; q: string; limit: number; allow: IdFilter; minScore?: number },
  ): Promise<SearchHit[]>;
  /** person ids whose name / e-mail is closest to `q`, best first */
  searchPersonTexts(
    store: ReadStore,
    query: { workspaceId: string; q: string; limit: number },
  ): Promise<SearchHit[]>;
  /** the score at or above which an item matches summarize_feedback's `q` */
  matchThreshold(): Promise<number>;
  /** embed what a crash or a provider change left pending (call once the store is open) */
  start(store: ReadStore): void;
  whenIdle(): Promise<void>;
  stop(): Promise<void>;
  /** how full each index is and how fast it fills; waits for the model (health output) */
  progress(store: ReadStore): Promise<{ items: IndexProgress; people: IndexProgress }>;
}

export function createFeedbackSearch(options: FeedbackSearchOptions): FeedbackSearch {
  const source = options.embedder;
  const embedder = (): Promise<Embedder> =>
    'get' in source ? source.get() : Promise.resolve(source);
  let bound: { store: ReadStore; targets: SearchTargets } | undefined;

  /** One pair of indexes per read store (a process has one; tests may build several). */
  function targetsFor(store: ReadStore): SearchTargets {
    if (bound?.store === store) return bound.targets;
    const model = embedder();
    model.catch(() => {}); // a load failure surfaces on search and in the indexer's retries
    const make = (name: string) => {
      const index = createVectorIndex({
        name,
        embedder: model,
        readStore: store,
        logger: options.logger,
        cacheTtlMs: options.cacheTtlMs,
        cacheBounds: options.cacheBounds,
      });
      const indexer = createIndexer({ index, delayMs: options.delayMs, logger: options.logger });
      return { index, indexer };
    };
    bound = { store, targets: { items: make(ITEM_VECTORS), people: make(PEOPLE_VECTORS) } };
    return bound.targets;
  }

  return {
    projectors: () => [feedbackSearchProjector(targetsFor)],
    searchItems(store, { workspaceId, q, limit, allow, minScore }) {
      return targetsFor(store).items.index.search(workspaceId, q, {
        limit,
        filter: allow,
        minScore,
      });
    },
    searchPersonTexts(store, { workspaceId, q, limit }) {
      return targetsFor(store).people.index.search(workspaceId, q, { limit });
    },
    async matchThreshold() {
      return options.matchThreshold ?? notesWeakMatchThreshold((await embedder()).provider);
    },
    start(store) {
      const { items, people } = targetsFor(store);
      items.indexer.start();
      people.indexer.start();
    },
    async whenIdle() {
      if (!bound) return;
      const { items, people } = bound.targets;
      await Promise.all([items.indexer.whenIdle(), people.indexer.whenIdle()]);
    },
    async stop() {
      if (!bound) return;
      const { items, people } = bound.targets;
      await Promise.all([items.indexer.stop(), people.indexer.stop()]);
    },
    async progress(store) {
      const { items, people } = targetsFor(store);
      const [i, p] = await Promise.all([
        indexProgress(items.index, items.indexer),
        indexProgress(people.index, people.indexer),
      ]);
      return { items: i, people: p };
    },
  };
}
