/**
 * Each scope's in-memory search structures, loaded from a vector index's collection on first
 * use: the arena of vectors (scope-arena.ts) and the lexical index of the same texts
 * (lexical-index.ts). The vector index keeps them current with its own writes (`touch…`: a
 * scope that is not loaded is left alone). With `cacheTtlMs` (another process writes the
 * collection) an arena older than that is reloaded before use, and a stale lexical index keeps
 * answering while its replacement is built.
 *
 * Scopes are many (a notes user each) and each loaded one holds memory until dropped, so at most
 * `maxScopes` stay loaded, holding at most `maxArenaBytes` of arenas: past either, the least
 * recently searched scope is dropped whole (both structures), which frees its arena's memory, and
 * its next search loads it again from the store — where every write already is, since a write
 * reaches the store before it touches the caches.
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

export interface ScopeCacheBounds {
  /** scopes kept loaded, each with its arena and lexical index */
  maxScopes: number;
  /** bytes of arena memory kept loaded (the scope searched last stays, however large) */
  maxArenaBytes: number;
}

/**
 * Per index. A scope with few texts holds ~30 KB (3000 scopes of 3 notes at 512 floats: +84 MB
 * resident), its arena one 64 KiB WebAssembly page that ~30 vectors fill, so 1000 scopes take
 * 30–70 MB. 256 MiB of arenas is ~130 000 vectors of 512 floats, a dozen 10 000-item workspaces,
 * each of which takes 1–2 s to load again once dropped (mostly its lexical index).
 */
export const DEFAULT_SCOPE_CACHE_BOUNDS = scopeCacheBounds(1000, 256);

/** The bounds as configured: SEARCH_CACHE_SCOPES and SEARCH_CACHE_MIB. */
export function scopeCacheBounds(scopes: number, mib: number): ScopeCacheBounds {
  return { maxScopes: scopes, maxArenaBytes: mib * 2 ** 20 };
}

interface Loaded<T> {
  loadedAt: number;
  value: Promise<T>;
}

/** One loaded scope. Once dropped (evicted, cleared) nothing it does reaches the caches. */
interface ScopeEntry {
  arena?: Loaded<ScopeArena>;
  /** what an arena of this entry held when last measured, counted in the caches' total */
  arenaBytes: number;
  lexicon?: Loaded<ScopeLexicon>;
  /** the lexical index being rebuilt while the stale `lexicon` answers */
  nextLexicon?: Promise<ScopeLexicon>;
}

export interface ScopeCaches {
  lexiconFor(scope: string): Promise<ScopeLexicon>;
  /** Applies a change to a scope's lexical index if that scope is loaded. */
  touchLexicon(scope: string, change: (lexicon: ScopeLexicon) => void): Promise<void>;
  arenaFor(scope: string, embedder: Embedder): Promise<ScopeArena>;
  /** Applies a change to a scope's arena if that scope is loaded (set/delete are idempotent). */
  touchArena(scope: string, change: (arena: ScopeArena) => void): Promise<void>;
  /** the loaded scopes, least recently searched first, and the bytes their arenas hold */
  loaded(): { scopes: string[]; arenaBytes: number };
  clear(): void;
}

export function createScopeCaches(
  docs: () => Collection<CachedText>,
  cacheTtlMs: number | undefined,
  bounds: ScopeCacheBounds = DEFAULT_SCOPE_CACHE_BOUNDS,
): ScopeCaches {
  // a Map iterates in insertion order: a scope is moved to the end when searched
  let entries = new Map<string, ScopeEntry>();
  let arenaBytes = 0;
  const fresh = (loadedAt: number) =>
    cacheTtlMs === undefined || performance.now() - loadedAt <= cacheTtlMs;

  function use(scope: string): ScopeEntry {
    const entry = entries.get(scope) ?? { arenaBytes: 0 };
    entries.delete(scope);
    entries.set(scope, entry);
    evictBeyondBounds();
    return entry;
  }

  function evictBeyondBounds(): void {
    for (const [scope, entry] of entries) {
      const over = entries.size > bounds.maxScopes || arenaBytes > bounds.maxArenaBytes;
      if (!over || entries.size === 1) return;
      entries.delete(scope);
      arenaBytes -= entry.arenaBytes;
    }
  }

  /** Counts what an arena of `entry` holds now; nothing once the entry was dropped. */
  function measure(scope: string, entry: ScopeEntry, bytes: number): void {
    if (entries.get(scope) !== entry) return;
    arenaBytes += bytes - entry.arenaBytes;
    entry.arenaBytes = bytes;
    evictBeyondBounds();
  }

  /**
   * A stale lexical index keeps answering while its replacement is built from the store:
   * rebuilding 10 000 texts takes ~0.5 s, which no search should wait for once a first exists.
   * The replacement's read may predate a write, so writes meanwhile are applied to both.
   */
  function rebuildLexicon(scope: string, entry: ScopeEntry): void {
    const next = loadLexicon(docs(), scope);
    entry.nextLexicon = next;
    next.then(
      () => {
        entry.lexicon = { loadedAt: performance.now(), value: next };
      },
      () => {},
    );
    next
      .finally(() => {
        if (entry.nextLexicon === next) entry.nextLexicon = undefined;
      })
      .catch(() => {}); // a failed rebuild is tried again by a later search
  }

  return {
    lexiconFor(scope) {
      const entry = use(scope);
      const current = entry.lexicon;
      if (current) {
        if (!fresh(current.loadedAt) && !entry.nextLexicon) rebuildLexicon(scope, entry);
        return current.value;
      }
      const value = loadLexicon(docs(), scope);
      entry.lexicon = { loadedAt: performance.now(), value };
      value.catch(() => {
        if (entry.lexicon?.value === value) entry.lexicon = undefined;
      });
      return value;
    },

    async touchLexicon(scope, change) {
      const entry = entries.get(scope);
      // registered before any later write's, so changes reach the replacement in write order
      entry?.nextLexicon?.then(change, () => {});
      if (entry?.lexicon) change(await entry.lexicon.value);
    },

    arenaFor(scope, embedder) {
      const entry = use(scope);
      const current = entry.arena;
      if (current && fresh(current.loadedAt)) return current.value;
      const loaded: Loaded<ScopeArena> = {
        loadedAt: performance.now(),
        value: loadArena(docs(), scope, embedder),
      };
      entry.arena = loaded;
      loaded.value.then(
        (arena) => {
          if (entry.arena === loaded) measure(scope, entry, arena.bytes);
        },
        () => {
          if (entry.arena !== loaded) return;
          entry.arena = undefined;
          measure(scope, entry, 0);
        },
      );
      return loaded.value;
    },

    async touchArena(scope, change) {
      const entry = entries.get(scope);
      const loaded = entry?.arena;
      if (!entry || !loaded) return;
      const arena = await loaded.value;
      change(arena);
      if (entry.arena === loaded) measure(scope, entry, arena.bytes); // a set may have grown it
    },

    loaded() {
      return { scopes: [...entries.keys()], arenaBytes };
    },

    clear() {
      // a load or rebuild still running finishes into a dropped entry, out of reach
      entries = new Map();
      arenaBytes = 0;
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
  // room for what there is: an arena grows by doubling, and most scopes (a user's notes) are small
  const arena = createScopeArena(embedder.dimensions, rows.length);
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
