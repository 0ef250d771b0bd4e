/**
 * The same-body fold's memory (decide.ts): the first submission under each fold key within
 * FOLD_WINDOW_MS. A busy product takes hundreds of submissions a minute, and evolve must not copy
 * all of them for each new one (a state is immutable: a batch's speculative states and the cached
 * snapshot share it). So the entries live in chunks, oldest first: adding one copies only the
 * newest chunk, and chunks whose newest entry left the window are dropped whole.
 */

/** spec of issue 12: "the same body from the same visitor within 10 minutes is folded" */
export const FOLD_WINDOW_MS = 10 * 60 * 1000;

const CHUNK = 64;

export interface FoldEntry {
  number: number;
  at: number;
}

export interface FoldChunk {
  /** time of the newest entry */
  until: number;
  entries: Readonly<Record<string, FoldEntry>>;
  size: number;
}

export type RecentFolds = readonly FoldChunk[];

/** `recent` with the first submission under `key` added at `at`. */
export function withFold(recent: RecentFolds, key: string, entry: FoldEntry): RecentFolds {
  const kept = recent.filter((chunk) => entry.at - chunk.until < FOLD_WINDOW_MS);
  const last = kept.at(-1);
  if (last && last.size < CHUNK) {
    const grown = {
      until: entry.at,
      entries: { ...last.entries, [key]: entry },
      size: last.size + 1,
    };
    return [...kept.slice(0, -1), grown];
  }
  return [...kept, { until: entry.at, entries: { [key]: entry }, size: 1 }];
}

/** The number of the first submission under `key` within the window before `at`, or null. */
export function foldedInto(recent: RecentFolds, key: string, at: number): number | null {
  for (let i = recent.length - 1; i >= 0; i--) {
    const chunk = recent[i]!;
    if (at - chunk.until >= FOLD_WINDOW_MS) return null;
    const entry = Object.hasOwn(chunk.entries, key) ? chunk.entries[key] : undefined;
    if (entry) return at - entry.at < FOLD_WINDOW_MS ? entry.number : null;
  }
  return null;
}

/**
 * The number of the newest submission under `key` the product still remembers, whatever its age:
 * read in the product as a folded submission left it, the item that submission folded into (a
 * retry of it, answered as its first attempt, may come after the window has passed).
 */
export function rememberedFold(recent: RecentFolds, key: string): number | null {
  for (let i = recent.length - 1; i >= 0; i--) {
    const entries = recent[i]!.entries;
    if (Object.hasOwn(entries, key)) return entries[key]!.number;
  }
  return null;
}
