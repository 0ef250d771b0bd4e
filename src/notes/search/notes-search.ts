/**
 * The notes side of semantic search: which texts go into the shared vector index (src/search)
 * and how a query is answered.
 *
 * Writes: a projector in the notes projection engine stages `title + content` of every created
 * or edited note in the `notes` vector index (scope = the owner's user id), removes a trashed
 * note and stages a restored one again. Staging is a cheap read-store write; the background
 * indexer embeds staged texts in batches off the request path. Delay until search sees a new or
 * edited note: the write's own projection wait, then ~100 ms batching plus the embedding of the
 * batches ahead of it — about 0.3–0.6 s in steady state on the bundled encoder (see
 * src/search/indexer.ts); a large backlog (rebuild, bulk import) drains batch after batch.
 *
 * Reads: only the caller's scope is searched, and hits under the provider's calibrated weak-match
 * threshold (src/search/thresholds.ts; 0.40 for the bundled encoder) are dropped, so a query
 * about nothing in the notes returns an empty list.
 */
import {
  noteStreamPrefix,
  parseNoteEvent,
  parseNoteStreamId,
} from '../../../commands/note/index.js';
import { type NoteDoc, noteDocId, notesCollection } from '../../../projections/notes/document.js';
import { NOTES_SEARCH, NOTES_VECTORS } from '../../../projections/search-indexes.js';
import type { Projector } from '../../../projections/shared/projector.js';
import type { Logger } from '../../platform/logger.js';
import type { ReadStore } from '../../readstore/types.js';
import {
  type EmbedderHandle,
  type EmbedderStatus,
  startEmbedder,
} from '../../search/create-embedder.js';
import {
  createIndexer,
  type Indexer,
  type IndexProgress,
  indexProgress,
} from '../../search/indexer.js';
import type { ScopeCacheBounds } from '../../search/scope-caches.js';
import { notesWeakMatchThreshold } from '../../search/thresholds.js';
import { createVectorIndex, type VectorIndex } from '../../search/vector-index.js';

export const NOTES_INDEX_NAME = NOTES_VECTORS;
/** Longer notes are embedded from their beginning: both encoders only read the first few hundred words. */
const EMBED_TEXT_MAX = 4000;

export interface NotesSearchOptions {
  logger: Logger;
  /** local folder with transformers.js models (MODEL_DIR) */
  modelDir?: string;
  /** a ready embedder handle instead of loading one (tests) */
  embedder?: EmbedderHandle;
  /** batching wait of the indexer (ms) */
  delayMs?: number;
  /** how many users and bytes of vectors the index keeps loaded (SEARCH_CACHE_*) */
  cacheBounds?: ScopeCacheBounds;
}

export interface NoteHit {
  noteId: string;
  score: number;
}

/**
 * What the notes' operations ask of search: the caller's active notes by meaning. Declared here,
 * beside its implementation, so that search, below HTTP, does not import the HTTP layer.
 */
export interface NotesSearchPort {
  search(userId: string, query: string, limit: number): Promise<NoteHit[]>;
}

export interface NotesSearch extends NotesSearchPort {
  /** the engine-fed projector that stages note texts; put it after the notes projector */
  projector(): Projector;
  /** use this store (the API process); `foreignWriter` when another process runs the indexer */
  bind(store: ReadStore, options?: { foreignWriter?: boolean }): void;
  /** start loading the model now, so the first search does not pay for it */
  warm(): void;
  /** embed what a crash or a provider change left pending */
  startIndexing(): void;
  /** resolves when nothing is waiting to be embedded (tests) */
  whenIdle(): Promise<void>;
  stop(): Promise<void>;
  /**
   * The health output's `search`: the embedder and, once it is ready, the index's progress
   * (indexed, pending, texts/s, estimated seconds to go), as the feedback service reports it.
   */
  health(): Promise<{
    embedder: EmbedderStatus | { state: 'not-started' };
    indexes?: { notes: IndexProgress };
  }>;
}

export function noteSearchText(note: { title: string; content: string }): string {
  const text = note.title ? `${note.title}\n\n${note.content}` : note.content;
  return text.length > EMBED_TEXT_MAX ? text.slice(0, EMBED_TEXT_MAX) : text;
}

export function createNotesSearch(options: NotesSearchOptions): NotesSearch {
  const { logger } = options;
  let handle = options.embedder;
  /** a handle this search started itself (none was given), so its own to close */
  let owned: EmbedderHandle | undefined;
  let bound: { store: ReadStore; index: VectorIndex; indexer: Indexer } | undefined;

  const embedder = () => {
    if (!handle) {
      owned = startEmbedder({ logger, modelDir: options.modelDir });
      handle = owned;
    }
    return handle;
  };

  function bind(store: ReadStore, bindOptions: { foreignWriter?: boolean } = {}) {
    if (bound) return bound;
    const index = createVectorIndex({
      name: NOTES_INDEX_NAME,
      embedder: embedder().get(),
      readStore: store,
      logger,
      cacheBounds: options.cacheBounds,
      // another process embeds: reload a user's vectors at most a second late
      ...(bindOptions.foreignWriter ? { cacheTtlMs: 1000 } : {}),
    });
    const indexer = createIndexer({ index, logger, delayMs: options.delayMs });
    bound = { store, index, indexer };
    return bound;
  }

  const projector: Projector = {
    ...NOTES_SEARCH,
    filter: {
      streamPrefixes: [noteStreamPrefix],
      eventTypes: ['NoteCreated', 'NoteUpdated', 'NoteTrashed', 'NoteRestored'],
    },
    async setup(store) {
      const { index } = bind(store);
      index.reset(); // after a rebuild dropped the collection, forget cached vectors
      await index.setup();
    },
    async apply(recorded, store) {
      const ids = parseNoteStreamId(recorded.streamId);
      const event = parseNoteEvent(recorded);
      if (!ids || !event) return;
      const { indexer } = bind(store);
      const id = noteDocId(ids.userId, ids.noteId);
      switch (event.type) {
        case 'NoteCreated':
        case 'NoteUpdated':
          await indexer.enqueue(id, ids.userId, noteSearchText(event.data));
          return;
        case 'NoteTrashed':
          await indexer.remove(id);
          return;
        case 'NoteRestored': {
          // The notes projector ran first for this event, so its document holds the text; on a
          // replay it may be newer, and the later events replayed after this one converge it.
          const doc = await store.collection<NoteDoc>(notesCollection).findOne({ _id: id });
          if (doc && doc.deletedAt === null)
            await indexer.enqueue(id, ids.userId, noteSearchText(doc));
          return;
        }
        case 'TagAddedToNote':
        case 'TagRemovedFromNote':
          return; // filtered out; tags do not change the text
        default: {
          const _exhaustive: never = event;
          return _exhaustive;
        }
      }
    },
  };

  return {
    projector: () => projector,
    bind(store, bindOptions) {
      bind(store, bindOptions);
    },
    warm() {
      embedder();
    },
    async search(userId, query, limit): Promise<NoteHit[]> {
      if (!bound) throw new Error('notes search used before bind()');
      const provider = (await embedder().get()).provider;
      const hits = await bound.index.search(userId, query, {
        limit,
        minScore: notesWeakMatchThreshold(provider),
      });
      const prefix = `${userId}.`;
      return hits
        .filter((hit) => hit.id.startsWith(prefix))
        .map((hit) => ({ noteId: hit.id.slice(prefix.length), score: hit.score }));
    },
    startIndexing() {
      bound?.indexer.start();
    },
    whenIdle: () => bound?.indexer.whenIdle() ?? Promise.resolve(),
    async stop() {
      await bound?.indexer.stop();
      await owned?.close();
    },
    async health() {
      const embedder = handle?.status() ?? { state: 'not-started' };
      if (embedder.state !== 'ready' || !bound) return { embedder };
      return { embedder, indexes: { notes: await indexProgress(bound.index, bound.indexer) } };
    },
  };
}
