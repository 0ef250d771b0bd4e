/**
 * Each scope's in-memory search structures, loaded from a vector index's collection on first
 * use: the arena of vectors (scope-arena.ts) and the lexical index of the same texts
 * (lexical-index.ts). The vector index keeps them current with its own writes (`touch…`: a
 * scope that is not loaded is left alone). With `cacheTtlMs` (another process writes the
 * collection) an arena older than that is reloaded before use, and a stale lexical index keeps
 * answering while its replacement is built.
 */
import type { Collection, Doc } from '../readstore/types.js';
import type { Embedder } from './embedder.js';
import { createScopeLexicon, type ScopeLexicon } from './lexical-index.js';
import { createScopeArena, type ScopeArena } from './scope-arena.js';
import { decodeVector } from './vector-codec.js';

/** The fields of an indexed text the caches load. */
export interface CachedText extends Doc {
  scope: string;
  text: string;
  provider: string | null;
  /** base64 Float32, null until embedded */
  vector: string | null;
}

export function createScopeCaches(
  docs: () => Collection<CachedText>,
  cacheTtlMs: number | undefined,
) {
  const arenas = new Map<string, { loadedAt: number; arena: Promise<ScopeArena> }>();
  const lexicons = new Map<string, { loadedAt: number; lexicon: Promise<ScopeLexicon> }>();
  const reloading = new Set<string>();
  let generation = 0; // a reload started before clear() must not bring old texts back
  const fresh = (loadedAt: number) =>
    cacheTtlMs === undefined || performance.now() - loadedAt <= cacheTtlMs;

  return {
    /**
     * A stale lexical index keeps answering while its replacement is built from the store:
     * rebuilding 10 000 texts takes ~0.5 s, which no search should wait for once a first exists.
     */
    lexiconFor(scope: string): Promise<ScopeLexicon> {
      const cached = lexicons.get(scope);
      if (cached) {
        if (!fresh(cached.loadedAt) && !reloading.has(scope)) {
          reloading.add(scope);
          const started = generation;
          const next = loadLexicon(docs(), scope);
          next.then(
            () => {
              if (started === generation)
                lexicons.set(scope, { loadedAt: performance.now(), lexicon: next });
            },
            () => {},
          );
          next.finally(() => reloading.delete(scope)).catch(() => {});
        }
        return cached.lexicon;
      }
      const lexicon = loadLexicon(docs(), scope);
      lexicons.set(scope, { loadedAt: performance.now(), lexicon });
      lexicon.catch(() => lexicons.delete(scope));
      return lexicon;
    },

    /** Applies a change to a scope's lexical index if that scope is loaded. */
    async touchLexicon(scope: string, change: (lexicon: ScopeLexicon) => void): Promise<void> {
      const cached = lexicons.get(scope);
      if (cached) change(await cached.lexicon);
    },

    arenaFor(scope: string, embedder: Embedder): Promise<ScopeArena> {
      const cached = arenas.get(scope);
      if (cached && fresh(cached.loadedAt)) return cached.arena;
      const arena = loadArena(docs(), scope, embedder);
      arenas.set(scope, { loadedAt: performance.now(), arena });
      arena.catch(() => arenas.delete(scope));
      return arena;
    },

    /** Applies a change to a scope's arena if that scope is loaded (set/delete are idempotent). */
    async touchArena(scope: string, change: (arena: ScopeArena) => void): Promise<void> {
      const cached = arenas.get(scope);
      if (cached) change(await cached.arena);
    },

    clear(): void {
      arenas.clear();
      lexicons.clear();
      reloading.clear();
      generation++;
    },
  };
}

async function loadArena(
  collection: Collection<CachedText>,
  scope: string,
  embedder: Embedder,
): Promise<ScopeArena> {
  const rows = await collection.find(
    { scope, provider: embedder.provider, vector: { $ne: null } },
    { projection: { _id: 1, vector: 1 } },
  );
  const arena = createScopeArena(embedder.dimensions, Math.max(64, rows.length));
  for (const row of rows) if (row.vector) arena.set(row._id, decodeVector(row.vector));
  return arena;
}

/** Every staged text of a scope, embedded or not: words are searchable before meaning is. */
async function loadLexicon(
  collection: Collection<CachedText>,
  scope: string,
): Promise<ScopeLexicon> {
  const rows = await collection.find({ scope }, { projection: { _id: 1, text: 1 } });
  const lexicon = createScopeLexicon();
  for (const row of rows) lexicon.set(row._id, row.text);
  return lexicon;
}
