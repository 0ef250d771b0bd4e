/**
 * A vector index kept as a read model (DESIGN.md "Search": "The vector index is a projection:
 * it records the provider and rebuilds when the provider changes").
 *
 * Collection `search_<name>` holds one document per indexed thing:
 *   { _id, scope, text, textHash, embedHash, provider, vector (base64 Float32) | null, pending }
 * plus one meta document `{ _id: '__meta__', provider, dimensions, changedAt }`.
 *
 * Writing and embedding are split so a write never waits for a model: `stage` stores the text
 * and marks it pending (cheap, safe to run twice: an unchanged text is a no-op), and
 * `embedPending` — run by the background indexer (indexer.ts) — embeds pending documents in
 * batches. Pending documents are durable, so nothing is lost across a restart. When the
 * meta document names another provider, every document is marked pending and re-embedded from
 * its stored text: the rebuild is incremental and search keeps answering meanwhile.
 *
 * Search is hybrid (hybrid.ts): brute-force cosine over a per-scope in-memory arena
 * (scope-arena.ts) fused with BM25 over a per-scope lexical index of the same texts
 * (lexical-index.ts). Both are loaded from the read store on first use (scope-caches.ts, which
 * keeps the recently searched scopes loaded, within bounds) and kept current by this index's own
 * writes — the lexical one when a text is STAGED, so a new or edited text is found by its words
 * as soon as its write's projection ran (before the write answers), and by its meaning once the
 * indexer has embedded it.
 */
import { searchCollection } from '../../projections/search-indexes.js';
import { encoderReads } from './encoder-scripts.js';
import type { Logger } from '../platform/logger.js';
import type { Doc, ReadStore } from '../readstore/types.js';
import { type Embedder, embeddablePrefix, untilAborted } from './embedder.js';
import { fuse, type SearchMode } from './hybrid.js';
import type { IdFilter, SearchHit } from './scope-arena.js';
import { type CachedText, createScopeCaches, type ScopeCacheBounds } from './scope-caches.js';
import { encodeVector, textHash } from './vector-codec.js';

export type { IdFilter, SearchHit } from './scope-arena.js';

/**
 * Whether a text holds a word (a letter or a digit). One that does not — only blank lines,
 * punctuation, symbols, emoji — has nothing to be found by: the encoder still gives it a vector,
 * a bland one that sat above the notes threshold for every query (0.44 for "quantum
 * chromodynamics"), so such a text is not indexed, and such a query finds nothing.
 */
export const hasWords = (text: string): boolean => /[\p{L}\p{N}]/u.test(text);

export interface VectorDoc extends CachedText {
  textHash: string;
  /**
   * hash of what any provider reads of the text (its first MAX_EMBED_CHARS, embeddablePrefix):
   * an edit past it keeps the vector (a long note appended to is not embedded again); absent on
   * documents of earlier versions, which are embedded again on their next edit
   */
  embedHash?: string;
  pending: boolean;
}

interface MetaDoc extends Doc {
  provider: string;
  dimensions: number;
  changedAt: string;
}

const META_ID = '__meta__';

export interface SearchOptions {
  /** 1 or more; default 10 */
  limit?: number;
  /** drop hits scoring below this (weak matches); default 0 (hits scoring 0 are never returned) */
  minScore?: number;
  /** only these ids may be returned (e.g. items matching a status filter) */
  filter?: IdFilter;
  /** `hybrid` (default); one ranking alone for bench:search's comparison */
  mode?: SearchMode;
}

export interface VectorIndexStatus {
  provider: string;
  indexed: number;
  pending: number;
  /** scopes whose indexes this process holds in memory (SEARCH_CACHE_SCOPES bounds them) */
  loadedScopes: number;
  /** bytes of vectors they hold (SEARCH_CACHE_MIB bounds them) */
  loadedVectorBytes: number;
}

export interface VectorIndex {
  readonly name: string;
  /** the read-model collection; a projection rebuild drops it, then call `reset()` */
  readonly collection: string;
  /** declare the collection's indexes; call from the projector's `setup` (start, after a rebuild) */
  setup(): Promise<void>;
  /** store a text to embed later; resolves true when it needs embedding (new or changed text) */
  stage(id: string, scope: string, text: string): Promise<boolean>;
  /** stage and embed now (tests, small batches); the write path uses the indexer instead */
  upsert(id: string, scope: string, text: string): Promise<void>;
  remove(id: string): Promise<void>;
  /** embed up to `limit` pending documents; resolves how many it took from the queue */
  /**
   * embeds up to `limit` pending texts; `signal` aborted: stops waiting for the embedder and
   * writes nothing, so the batch stays pending (the next start embeds it)
   */
  embedPending(limit: number, signal?: AbortSignal): Promise<number>;
  search(scope: string, query: string, options?: SearchOptions): Promise<SearchHit[]>;
  status(): Promise<VectorIndexStatus>;
  /** forget in-memory state (after the collection was dropped or rebuilt elsewhere) */
  reset(): void;
}

export interface VectorIndexOptions {
  name: string;
  embedder: Embedder | Promise<Embedder>;
  readStore: ReadStore;
  logger?: Pick<Logger, 'info'>;
  /**
   * Reload a scope's vectors from the store when its cache is older than this. Leave unset
   * when this process makes every write (embedded mode); set it (e.g. 1000) when another
   * process runs the indexer, which bounds how stale this process's search can be.
   */
  cacheTtlMs?: number;
  /** how many scopes, and how many bytes of vectors, stay loaded (DEFAULT_SCOPE_CACHE_BOUNDS) */
  cacheBounds?: ScopeCacheBounds;
}

export function createVectorIndex(options: VectorIndexOptions): VectorIndex {
  const { name, readStore, logger, cacheTtlMs, cacheBounds } = options;
  const collectionName = searchCollection(name);
  const docs = () => readStore.collection<VectorDoc>(collectionName);
  const meta = () => readStore.collection<MetaDoc>(collectionName);
  let opened: Promise<Embedder> | undefined;
  const caches = createScopeCaches(docs, cacheTtlMs, cacheBounds);

  async function setup(): Promise<void> {
    await docs().createIndex({ keys: { scope: 1 } });
    await docs().createIndex({ keys: { pending: 1 } });
  }

  /** Resolves the embedder; on the first call, checks the recorded provider (rebuild on change). */
  function open(): Promise<Embedder> {
    opened ??= (async () => {
      const embedder = await options.embedder;
      const recorded = await meta().findOne({ _id: META_ID });
      if (recorded?.provider !== embedder.provider) {
        const { matchedCount } = await docs().updateMany(
          { scope: { $exists: true }, provider: { $ne: embedder.provider }, pending: false },
          { $set: { pending: true } },
        );
        const now = new Date().toISOString();
        const doc: MetaDoc = {
          _id: META_ID,
          provider: embedder.provider,
          dimensions: embedder.dimensions,
          changedAt: now,
        };
        await meta().replaceOne({ _id: META_ID }, doc, { upsert: true });
        if (recorded) {
          logger?.info('search index provider changed; re-embedding', {
            index: name,
            from: recorded.provider,
            to: embedder.provider,
            documents: matchedCount,
          });
        }
      }
      await setup();
      return embedder;
    })();
    opened.catch(() => {
      opened = undefined; // a failed start is retried by the next call
    });
    return opened;
  }

  // Store writes and cache updates run one at a time, so a removal cannot interleave between
  // an embedding's store write and its cache update (embedding itself runs outside the lock).
  let tail: Promise<unknown> = Promise.resolve();
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = tail.then(work, work);
    tail = run.catch(() => {});
    return run;
  }

  async function embedDocs(batch: VectorDoc[], signal?: AbortSignal): Promise<void> {
    const embedder = await untilAborted(open(), signal);
    const texts = batch.map((doc) => doc.text);
    const vectors = await untilAborted(embedder.embed(texts, { signal }), signal);
    await exclusive(async () => {
      for (const [i, doc] of batch.entries()) {
        // guarded by hash and scope: a text edited or moved meanwhile stays pending for the next batch
        const { matchedCount } = await docs().updateOne(
          { _id: doc._id, textHash: doc.textHash, scope: doc.scope },
          {
            $set: { vector: encodeVector(vectors[i]), provider: embedder.provider, pending: false },
          },
        );
        if (matchedCount === 1)
          await caches.touchArena(doc.scope, (arena) => arena.set(doc._id, vectors[i]));
      }
    });
  }

  function stage(id: string, scope: string, text: string): Promise<boolean> {
    if (!hasWords(text)) return removeIfIndexed(id);
    return exclusive(async () => {
      const hash = textHash(text);
      const embedHash = textHash(embeddablePrefix(text));
      const existing = await docs().findOne({ _id: id });
      if (!existing) {
        const doc: VectorDoc = {
          _id: id,
          scope,
          text,
          textHash: hash,
          embedHash,
          provider: null,
          vector: null,
          pending: true,
        };
        await docs().replaceOne({ _id: id }, doc, { upsert: true });
        await caches.touchLexicon(scope, (lexicon) => lexicon.set(id, text));
        return true;
      }
      if (existing.textHash === hash && existing.scope === scope) return false;
      if (existing.scope !== scope) {
        await caches.touchArena(existing.scope, (arena) => arena.delete(id));
        await caches.touchLexicon(existing.scope, (lexicon) => lexicon.delete(id));
      }
      // An edited text keeps its old vector until re-embedded, so the item stays findable; one
      // edited only past what the models read keeps it for good.
      const pending =
        existing.pending || existing.embedHash !== embedHash || existing.scope !== scope;
      await docs().updateOne(
        { _id: id },
        { $set: { scope, text, textHash: hash, embedHash, pending } },
      );
      await caches.touchLexicon(scope, (lexicon) => lexicon.set(id, text));
      return true;
    });
  }

  /** true when there was something to remove */
  function removeIfIndexed(id: string): Promise<boolean> {
    return exclusive(async () => {
      const doc = await docs().findOne({ _id: id });
      if (!doc || doc._id === META_ID) return false;
      await docs().deleteOne({ _id: id });
      await caches.touchArena(doc.scope, (arena) => arena.delete(id));
      await caches.touchLexicon(doc.scope, (lexicon) => lexicon.delete(id));
      return true;
    });
  }

  async function remove(id: string): Promise<void> {
    await removeIfIndexed(id);
  }

  return {
    name,
    collection: collectionName,
    setup,
    stage,
    async upsert(id, scope, text) {
      if (!(await stage(id, scope, text))) return;
      const doc = await docs().findOne({ _id: id });
      if (doc) await embedDocs([doc]);
    },
    remove,
    async embedPending(limit, signal) {
      await untilAborted(open(), signal);
      const batch = await docs().find({ pending: true }, { limit });
      if (batch.length > 0) await embedDocs(batch, signal);
      return batch.length;
    },
    async search(scope, query, searchOptions = {}) {
      const { filter, mode } = searchOptions;
      const limit = searchOptions.limit ?? 10;
      const semanticLimit = Math.max(limit * 4, 40);
      if (!hasWords(query)) return [];
      const embedder = await open();
      const allow =
        filter && (typeof filter === 'function' ? filter : (id: string) => filter.has(id));
      if ((mode ?? 'hybrid') === 'hybrid' && !encoderReads(embedder.provider, query)) {
        // a query in a script the encoder cannot read: its words alone (encoder-scripts.ts)
        return fuse({
          semantic: [],
          semanticLimit,
          lexical: (await caches.lexiconFor(scope)).search(query, allow),
          semanticOf: () => 0,
          limit,
          minScore: searchOptions.minScore ?? 0,
          mode: 'lexical',
        });
      }
      // before any indexing queued in the embedder thread (embedder-thread.ts)
      const embedding = embedder.embed([query], { priority: 'query' });
      const arenaLoading = caches.arenaFor(scope, embedder);
      // settled below; these only keep an early failure of the lexicon from leaving them unhandled
      embedding.catch(() => {});
      arenaLoading.catch(() => {});
      // the words are searched on this thread while the embedder thread embeds the query
      const lexical = (await caches.lexiconFor(scope)).search(query, allow);
      const [[vector], arena] = await Promise.all([embedding, arenaLoading]);
      return fuse({
        // a wider semantic list than asked for: a lexical match may lift one from below the cut
        semantic: arena.top(vector, semanticLimit, 0, filter),
        semanticLimit,
        lexical,
        semanticOf: (id) => arena.score(id, vector),
        limit,
        minScore: searchOptions.minScore ?? 0,
        mode,
      });
    },
    async status() {
      const embedder = await open();
      const [indexed, pending] = await Promise.all([
        docs().countDocuments({ pending: false, provider: embedder.provider }),
        docs().countDocuments({ pending: true }),
      ]);
      const { scopes, arenaBytes } = caches.loaded();
      return {
        provider: embedder.provider,
        indexed,
        pending,
        loadedScopes: scopes.length,
        loadedVectorBytes: arenaBytes,
      };
    },
    reset() {
      opened = undefined;
      caches.clear();
    },
  };
}
