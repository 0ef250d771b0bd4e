/**
 * The feedback board's semantic search, for the service module. Wiring (one search per service
 * instance, shared by its projectors, its app and its workers):
 *
 *   const search = feedbackSearch(config, logger);        // in projectors(ctx), first call
 *   projectors: [...feedbackProjectors(), ...search.projectors()]   // AFTER items and people
 *   followupOperations({ ...httpDeps, search })           // in createApp
 *   ctx.reportHealth('search', feedbackSearchHealth(ctx, search))  // once per process
 *   startFeedbackSearch(ctx, search)                      // in startWorkers; returns { stop }
 */
import type { Config } from '../../config/schema.js';
import type { Logger } from '../../platform/logger.js';
import type { ServiceContext } from '../../platform/service.js';
import type { EmbedderHandle } from '../../search/create-embedder.js';
import { scopeCacheBounds } from '../../search/scope-caches.js';
import { createFeedbackSearch, type FeedbackSearch } from './search.js';

export { itemsMatching, searchItemDocs, searchItems, searchPeople } from './queries.js';
export { createFeedbackSearch, type FeedbackSearch, type FeedbackSearchOptions } from './search.js';
export { feedbackSearchProjector } from './projector.js';

export interface ServedFeedbackSearch extends FeedbackSearch {
  readonly embedder: EmbedderHandle;
}

/**
 * The search over the process's embedder (transformers.js all-MiniLM-L6-v2 from MODEL_DIR, else
 * the bundled encoder), which loads in the background on first use. With MongoDB the
 * indexer may run in another process (projector role), so cached vectors are reloaded when
 * older than a second.
 */
export function feedbackSearch(
  config: Config,
  logger: Logger,
  embedder: EmbedderHandle,
): ServedFeedbackSearch {
  const search = createFeedbackSearch({
    embedder,
    logger,
    ...(config.MONGODB_URL ? { cacheTtlMs: 1000 } : {}),
    cacheBounds: scopeCacheBounds(config.SEARCH_CACHE_SCOPES, config.SEARCH_CACHE_MIB),
  });
  return Object.assign(search, { embedder });
}

/**
 * What the health output shows under `search`: the embedder and, once it is ready, each index's
 * progress (indexed, pending, texts/s, estimated seconds to go) and what this process holds of
 * it in memory. Every role that serves or builds the indexes reports it: an API process holds
 * the scopes its searches loaded (`loadedScopes`), the projector fills the indexes.
 */
export function feedbackSearchHealth(
  ctx: ServiceContext,
  search: FeedbackSearch & { embedder?: EmbedderHandle },
): () => Promise<unknown> {
  return async () => {
    const embedder = search.embedder?.status() ?? { state: 'custom' };
    if (embedder.state !== 'ready' && embedder.state !== 'custom') return { embedder };
    return { embedder, indexes: await search.progress(ctx.stores.readStore) };
  };
}

/**
 * Background work of the projector role: embeds what a crash or a provider change left pending
 * (new texts are embedded as the projector stages them).
 */
export async function startFeedbackSearch(
  ctx: ServiceContext,
  search: FeedbackSearch & { embedder?: EmbedderHandle },
): Promise<{ stop(): Promise<void> }> {
  search.start(ctx.stores.readStore);
  return { stop: () => search.stop() };
}
