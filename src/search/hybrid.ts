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

/** `hybrid` serves; the others are for bench:search's comparison (`rrf`: ranks only, no scale) */
export type SearchMode = 'hybrid' | 'semantic' | 'lexical' | 'rrf';

export function fuse(input: {
  /** the semantic ranking, best first, cut at `semanticLimit` hits */
  semantic: readonly SearchHit[];
  semanticLimit: number;
  lexical: readonly LexicalHit[];
  /** the semantic score of a text the semantic ranking did not return */
  semanticOf(id: string): number;
  limit: number;
  minScore: number;
  mode?: SearchMode;
}): SearchHit[] {
  const mode = input.mode ?? 'hybrid';
  if (mode === 'rrf') return reciprocalRankFusion(input.semantic, input.lexical, input.limit);
  const lift = (coverage: number) => LEXICAL_WEIGHT * coverage ** COVERAGE_POWER;
  const fused = (semantic: number, coverage: number) => 1 - (1 - semantic) * (1 - lift(coverage));
  const useSemantic = mode !== 'lexical';
  const useLexical = mode !== 'semantic';
  const lexicalById = new Map(useLexical ? input.lexical.map((hit) => [hit.id, hit]) : []);
  const scored: { id: string; score: number; bm25: number }[] = [];
  const seen = new Set<string>();
  if (useSemantic) {
    for (const hit of input.semantic) {
      const lexical = lexicalById.get(hit.id);
      seen.add(hit.id);
      scored.push({
        id: hit.id,
        score: fused(hit.score, lexical?.coverage ?? 0),
        bm25: lexical?.score ?? 0,
      });
    }
  }
  // A text the semantic list left out scores at most the list's lowest semantic score, or 0 when
  // the list is shorter than asked for (then it held every text scoring above 0). Lexical-only
  // texts are taken by coverage, best first, and scored exactly only while that bound can still
  // reach the top `limit`: on 10 000 texts a common word matches thousands.
  const full = input.semantic.length >= input.semanticLimit;
  const semanticCut = useSemantic && full ? input.semantic[input.semantic.length - 1]!.score : 0;
  const rest = (useLexical ? input.lexical : [])
    .filter((hit) => !seen.has(hit.id))
    .sort((a, b) => b.coverage - a.coverage || b.score - a.score);
  // the best `limit` scores so far, ascending: the bar a new text must reach is best[0]
  const best = scored
    .map((hit) => hit.score)
    .sort((a, b) => b - a)
    .slice(0, input.limit)
    .reverse();
  const bar = () => Math.max(input.minScore, best.length < input.limit ? 0 : best[0]!);
  for (const hit of rest) {
    if (fused(semanticCut, hit.coverage) < bar()) break;
    const score = fused(useSemantic ? input.semanticOf(hit.id) : 0, hit.coverage);
    scored.push({ id: hit.id, score, bm25: hit.score });
    const at = best.findIndex((s) => s > score);
    best.splice(at < 0 ? best.length : at, 0, score);
    if (best.length > input.limit) best.shift();
  }
  return scored
    .filter((hit) => hit.score > 0 && hit.score >= input.minScore)
    .sort(
      (a, b) => b.score - a.score || b.bm25 - a.bm25 || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, input.limit)
    .map(({ id, score }) => ({ id, score }));
}

/** Reciprocal rank fusion (k = 60), for the bench's comparison only: ranks, not scores. */
function reciprocalRankFusion(
  semantic: readonly SearchHit[],
  lexical: readonly LexicalHit[],
  limit: number,
): SearchHit[] {
  const scores = new Map<string, number>();
  const add = (ids: string[]) => {
    for (const [rank, id] of ids.entries()) scores.set(id, (scores.get(id) ?? 0) + 1 / (61 + rank));
  };
  add(semantic.map((hit) => hit.id));
  add(lexical.map((hit) => hit.id));
  return [...scores]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([id, score]) => ({ id, score }));
}
