/**
 * Search-quality measures shared by the quality tests and bench/search.bench.ts, so the
 * figures the bench prints are the ones the tests hold.
 */
import { feedbackItems, itemText, relevanceQueries } from '../../fixtures/search/feedback.js';
import { meaningQueries, noteText, notes, unrelatedQueries } from '../../fixtures/search/notes.js';
import type { Embedder } from '../../../src/search/embedder.js';
import type { SearchMode } from '../../../src/search/hybrid.js';
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

/**
 * recall@k = |relevant ∩ top k| / |relevant|, per query and averaged over the queries; and
 * MRR@10 = the mean over queries of 1 / the rank of the first relevant item in the top 10 (0 when
 * none is there).
 */
export async function feedbackRecallAt(k: number, embedder: Embedder, mode?: SearchMode) {
  const index = await indexTexts(
    embedder,
    'feedback_fixture',
    'ws',
    feedbackItems.map((item) => ({ id: item.id, text: itemText(item) })),
  );
  const perQuery: QueryRecall[] = [];
  let reciprocalRanks = 0;
  for (const { query, relevant } of relevanceQueries) {
    const ten = (await index.search('ws', query, { limit: Math.max(k, 10), mode })).map(
      (hit) => hit.id,
    );
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
