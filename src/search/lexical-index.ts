/**
 * The lexical half of hybrid search: BM25 over the same texts the vector index embeds, one
 * in-memory MiniSearch index per scope, kept current by the vector index's own writes (so a
 * text is findable by its words as soon as it is staged, before any vector exists).
 *
 * Why MiniSearch: a small, dependency-free, well-kept full-text index for JavaScript with
 * BM25+ ranking, prefix and fuzzy matching, a pluggable tokenizer and term processor, and add /
 * discard of single documents — exactly a projection's needs. FlexSearch ranks by its own
 * contextual score rather than BM25 and its typings are weaker; lunr cannot update an index.
 *
 * Terms are folded (NFD without combining marks, lower case), English stop words dropped, and
 * stemmed (Porter, `stemmer`); the last query word also matches as a prefix (typing ahead), and
 * words of five letters or more tolerate a typo (edit distance 1 in 5, 2 in 10).
 *
 * Each hit carries `coverage`: the share of the query's terms the text contains (prefix and
 * fuzzy matches included). It is what the fusion (hybrid.ts) reads, because it is calibrated —
 * 1 means every word of the query is there — where a BM25 score depends on the corpus.
 */
import MiniSearch, { type SearchResult } from 'minisearch';
import { stemmer } from 'stemmer';

const STOP_WORDS = new Set(
  (
    'a an and are as at be but by can could do does for from has have how i if in into is it its ' +
    'me my no not of on or our so than that the their then there these they this to too was we ' +
    'were what when where which who why will with would you your'
  ).split(' '),
);

/** A word as indexed and searched: folded, stemmed; null for a stop word. */
export function lexicalTerm(word: string): string | null {
  const folded = word
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  if (folded.length === 0 || STOP_WORDS.has(folded)) return null;
  return /^[a-z]+$/.test(folded) ? stemmer(folded) : folded;
}

/** Words are runs of letters and digits: "E-1042" is "e" and "1042", "ada.lovelace@x.io" four. */
const tokenize = (text: string): string[] => text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

export interface LexicalHit {
  id: string;
  /** BM25+ score (orders hits of equal coverage) */
  score: number;
  /** in [0, 1]: the share of the query's terms found in the text */
  coverage: number;
}

export interface ScopeLexicon {
  set(id: string, text: string): void;
  delete(id: string): void;
  search(query: string, allow?: (id: string) => boolean): LexicalHit[];
}

export function createScopeLexicon(): ScopeLexicon {
  const index = new MiniSearch<{ id: string; text: string }>({
    fields: ['text'],
    storeFields: [],
    tokenize,
    processTerm: (term) => lexicalTerm(term) ?? false,
  });
  return {
    set(id, text) {
      if (index.has(id)) index.replace({ id, text });
      else index.add({ id, text });
    },
    delete(id) {
      if (index.has(id)) index.discard(id);
    },
    search(query, allow) {
      const terms = tokenize(query)
        .map(lexicalTerm)
        .filter((t): t is string => t !== null);
      if (terms.length === 0) return [];
      const unique = new Set(terms);
      const last = terms.length - 1;
      // MiniSearch tokenizes and processes the query as it did the texts (same functions)
      const results: SearchResult[] = index.search(query, {
        prefix: (_term, i) => i === last,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        combineWith: 'OR',
        filter: allow ? (result) => allow(String(result.id)) : undefined,
      });
      return results.map((result) => ({
        id: String(result.id),
        score: result.score,
        coverage: Math.min(1, new Set(result.queryTerms).size / unique.size),
      }));
    },
  };
}
