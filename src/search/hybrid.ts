/**
 * Fusing the two rankings of hybrid search into one score in [0, 1], higher is closer:
 *
 *   score = 1 − (1 − S) · (1 − W · C³)
 *
 * S is the semantic score (cosine, floored at 0) and C the lexical coverage (the share of the
 * query's words the text holds, lexical-index.ts). It reads as "either signal may vouch for a
 * match": a text with every query word scores at least W whatever the encoder thinks (an error
 * code, a product term, a customer's name), a paraphrase with no shared word keeps its semantic
 * score, and a text that has both ranks above either. Unlike reciprocal rank fusion it is a
 * calibrated score, so the notes service's weak-match threshold still means something; bench
 * `npm run bench:search` prints both fusions side by side on the labelled fixtures. Equal scores
 * are ordered by BM25, then by id.
 */
import type { LexicalHit } from './lexical-index.js';
import type { SearchHit } from './scope-arena.js';

/** How far full lexical coverage alone lifts a text (measured on the fixtures: bench:search). */
export const LEXICAL_WEIGHT = 0.7;
/**
 * Coverage counts cubed: a text holding every query word is lifted fully, one holding one word of
 * three barely (0.33³ ≈ 0.04). Linear coverage let single shared words ("launch") lift unrelated
 * texts: on the fixtures it cost 0.025 recall@5, 0.04 MRR and one unrelated notes query.
 */
const COVERAGE_POWER = 3;

export type SearchMode = 'hybrid' | 'semantic' | 'lexical';

export function fuse(input: {
  semantic: readonly SearchHit[];
  lexical: readonly LexicalHit[];
  /** the semantic score of a text the semantic ranking did not return */
  semanticOf(id: string): number;
  limit: number;
  minScore: number;
  mode?: SearchMode;
}): SearchHit[] {
  const mode = input.mode ?? 'hybrid';
  const rows = new Map<string, { semantic: number; coverage: number; bm25: number }>();
  if (mode !== 'lexical') {
    for (const hit of input.semantic)
      rows.set(hit.id, { semantic: hit.score, coverage: 0, bm25: 0 });
  }
  if (mode !== 'semantic') {
    for (const hit of input.lexical) {
      const row = rows.get(hit.id);
      if (row) {
        row.coverage = hit.coverage;
        row.bm25 = hit.score;
      } else {
        const semantic = mode === 'lexical' ? 0 : input.semanticOf(hit.id);
        rows.set(hit.id, { semantic, coverage: hit.coverage, bm25: hit.score });
      }
    }
  }
  const scored = [...rows].map(([id, row]) => ({
    id,
    bm25: row.bm25,
    score: 1 - (1 - row.semantic) * (1 - LEXICAL_WEIGHT * row.coverage ** COVERAGE_POWER),
  }));
  return scored
    .filter((hit) => hit.score > 0 && hit.score >= input.minScore)
    .sort(
      (a, b) => b.score - a.score || b.bm25 - a.bm25 || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, input.limit)
    .map(({ id, score }) => ({ id, score }));
}

/** Reciprocal rank fusion (k = 60), for the bench's comparison only: ranks, not scores. */
export function reciprocalRankFusion(
  semantic: readonly SearchHit[],
  lexical: readonly LexicalHit[],
  limit: number,
): SearchHit[] {
  const scores = new Map<string, number>();
  const add = (ids: string[]) =>
    ids.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (60 + rank + 1)));
  add(semantic.map((hit) => hit.id));
  add(lexical.map((hit) => hit.id));
  return [...scores]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([id, score]) => ({ id, score }));
}
