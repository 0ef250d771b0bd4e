/**
 * Picks the embedding provider: transformers.js with all-MiniLM-L6-v2 from a local folder when
 * one is there, else the bundled Universal Sentence Encoder lite. Says which one serves in the
 * log and in the health output (`embedder.provider`).
 */
import type { Logger } from '../platform/logger.js';
import { type Embedder, EmbedderUnavailableError } from './embedder.js';
import { loadEnergeticEmbedder } from './energetic-embedder.js';
import { startEmbedderThread } from './embedder-thread.js';
import { loadTransformersEmbedder, type TransformersOptions } from './transformers-embedder.js';

export interface CreateEmbedderOptions extends TransformersOptions {
  logger: Pick<Logger, 'info' | 'warn'>;
}

/** Loads a provider (seconds at most); resolves with the first that works. */
export async function createEmbedder(options: CreateEmbedderOptions): Promise<Embedder> {
  const { logger } = options;
  let reason: string;
  try {
    const embedder = await loadTransformersEmbedder(options);
    logger.info('search embedder ready', {
      provider: embedder.provider,
      dimensions: embedder.dimensions,
    });
    return embedder;
  } catch (error) {
    if (!(error instanceof EmbedderUnavailableError)) throw error;
    reason = error.message;
  }
  const embedder = await loadEnergeticEmbedder();
  logger.info('search embedder ready (fallback)', {
    provider: embedder.provider,
    dimensions: embedder.dimensions,
    fallbackReason: reason,
  });
  return embedder;
}

export type EmbedderStatus =
  | { state: 'not-started' }
  | { state: 'loading' }
  | { state: 'ready'; provider: string; dimensions: number }
  | { state: 'failed'; error: string };

export interface EmbedderHandle {
  /** resolves once a provider is loaded; search and the indexer await it, writes never do */
  get(): Promise<Embedder>;
  /** for the health output: `{ embedder: handle.status() }` */
  status(): EmbedderStatus;
  /** ends the embedder thread (when one was started); later get() and embed() calls reject */
  close(): Promise<void>;
}

/**
 * Starts loading in the background right away, so the first search does not pay for it. The
 * provider runs in a thread of its own (embedder-thread.ts), never on the caller's thread.
 */
export function startEmbedder(options: CreateEmbedderOptions): EmbedderHandle {
  let status: EmbedderStatus = { state: 'loading' };
  const thread = startEmbedderThread(options);
  const loading = thread.ready.then(
    (embedder) => {
      status = { state: 'ready', provider: embedder.provider, dimensions: embedder.dimensions };
      return embedder;
    },
    (error: Error) => {
      status = { state: 'failed', error: error.message };
      options.logger.warn('search embedder failed to load', { error: error.message });
      throw error;
    },
  );
  // The rejection is reported through status(); callers of get() still see it.
  loading.catch(() => {});
  return { get: () => loading, status: () => status, close: () => thread.close() };
}

/**
 * A handle that starts loading on the first `get()`: a process that never searches or indexes
 * (the admin CLI) never loads a model, and all services of one process share the one it loads.
 */
export function lazyEmbedder(options: CreateEmbedderOptions): EmbedderHandle {
  let started: EmbedderHandle | undefined;
  return {
    get: () => {
      started ??= startEmbedder(options);
      return started.get();
    },
    status: () => started?.status() ?? { state: 'not-started' },
    close: async () => {
      await started?.close();
    },
  };
}
