/**
 * Search-quality measures shared by the quality tests and bench/search.bench.ts, so the
 * figures the bench prints are the ones the tests hold.
 */
import { feedbackItems, itemText, relevanceQueries } from '../../fixtures/search/feedback.js';
import { meaningQueries, noteText, notes, unrelatedQueries } from '../../fixtures/search/notes.js';
import type { Embedder } from '../../../src/search/embedder.js';
import type { SearchMode } from '../../../src/search/hybrid.js';
import { notesWeakMatchThreshold } from '../../../src/search/thresholds.js';
import { createVectorIndex, type VectorIndex } from '../../../src/search/vector-index.js';
import { memoryReadStore } from './memory-read-store.js';

export async function indexTexts(
  embedder: Embedder,
  name: string,
  scope: string,
  entries: readonly { id: string; text: string }[],
): Promise<VectorIndex> {
  const index = createVectorIndex({ name, embedder, readStore: memoryReadStore() });
  for (const entry of entries) await index.stage(entry.id, scope, entry.text);
  while ((await index.embedPending(64)) > 0) {}
  return index;
}

export interface QueryRecall {
  query: string;
  recall: number;
  top: string[];
}

/** A fixture query about nothing in the items (`relevant: []`) and what the search made of it. */
export interface NoMatchResult {
  query: string;
  /** the search returned nothing scoring at or above the weak-match threshold */
  empty: boolean;
  /** the best hit whatever its score, to show how close a leak (or a near miss) came */
  top?: { id: string; score: number };
}

/**
 * recall@k = |relevant ∩ top k| / |relevant|, per query and averaged over the queries; and
 * MRR@10 = the mean over queries of 1 / the rank of the first relevant item in the top 10 (0 when
 * none is there). Queries with `relevant: []` (about nothing in the items) have no recall or rank
 * and are left out of both averages and of `perQuery`; instead `noMatch` tells for each whether
 * the search returned nothing at or above `weakMatch` — by default the threshold the feedback
 * service leaves weak matches out with (`FeedbackSearch.matchThreshold()`: the board and
 * summarize_feedback's `q`) — and `emptyRate` is the share of them that did. In the `rrf` mode
 * scores are rank sums, not similarities, and no threshold applies: every such query counts as
 * not empty there.
 */
export async function feedbackRecallAt(
  k: number,
  embedder: Embedder,
  mode?: SearchMode,
  weakMatch = notesWeakMatchThreshold(embedder.provider),
) {
  const index = await indexTexts(
    embedder,
    'feedback_fixture',
    'ws',
    feedbackItems.map((item) => ({ id: item.id, text: itemText(item) })),
  );
  const perQuery: QueryRecall[] = [];
  const noMatch: NoMatchResult[] = [];
  let reciprocalRanks = 0;
  for (const { query, relevant } of relevanceQueries) {
    const hits = await index.search('ws', query, { limit: Math.max(k, 10), mode });
    if (relevant.length === 0) {
      const kept = await index.search('ws', query, { limit: 10, mode, minScore: weakMatch });
      noMatch.push({
        query,
        empty: kept.length === 0,
        top: hits[0] && { id: hits[0].id, score: hits[0].score },
      });
      continue;
    }
    const ten = hits.map((hit) => hit.id);
    const top = ten.slice(0, k);
    const first = ten.findIndex((id) => relevant.includes(id));
    if (first >= 0) reciprocalRanks += 1 / (first + 1);
    perQuery.push({
      query,
      top,
      recall: relevant.filter((id) => top.includes(id)).length / relevant.length,
    });
  }
  return {
    recall: perQuery.reduce((sum, q) => sum + q.recall, 0) / perQuery.length,
    mrr: reciprocalRanks / perQuery.length,
    perQuery,
    noMatch,
    emptyRate: noMatch.length === 0 ? 1 : noMatch.filter((q) => q.empty).length / noMatch.length,
    weakMatch,
    index,
  };
}

/** what notes search returns at `threshold` for each fixture query */
export async function notesAtThreshold(threshold: number, embedder: Embedder, mode?: SearchMode) {
  const index = await indexTexts(
    embedder,
    'notes_fixture',
    'user',
    notes.map((note) => ({ id: note.id, text: noteText(note) })),
  );
  const search = (query: string) =>
    index.search('user', query, { limit: 10, minScore: threshold, mode });
  const related = [];
  for (const { query, note } of meaningQueries) {
    const hits = await search(query);
    related.push({ query, note, found: hits.some((hit) => hit.id === note), hits });
  }
  const unrelated = [];
  for (const query of unrelatedQueries) unrelated.push({ query, hits: await search(query) });
  return {
    related,
    unrelated,
    foundRate: related.filter((r) => r.found).length / related.length,
    emptyRate: unrelated.filter((u) => u.hits.length === 0).length / unrelated.length,
    search,
  };
}
