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
 * Terms are folded (NFD without combining marks, lower case) and English stop words dropped;
 * each word is indexed both stemmed (Porter, `stemmer`: "exports" finds "export") and as
 * written (a typo changes the stem — "notificatons" stems to "notificaton", "notifications" to
 * "notif" — but stays one edit from the word). The last query word also matches as a prefix
 * (typing ahead), and so does every word of four letters or more (a word typed short: "gant
 * chart" finds "Gantt view"; on the labelled fixture recall@5 0.898 → 0.920, nothing else
 * moved); words of five letters or more tolerate a typo (edit distance 1 in 5, 2 in 10)
 * and two swapped neighbouring letters ("andriod"), which edit distance counts as two.
 *
 * Each hit carries `coverage`: the share of the query's terms the text contains (prefix and
 * fuzzy matches included). It is what the fusion (hybrid.ts) reads, because it is calibrated —
 * 1 means every word of the query is there — where a BM25 score depends on the corpus. A typo
 * match counts only for a query word no text holds as typed (Typesense's rule: typo tolerance
 * is for words that find nothing): a just-written "lanternflyXk" must not rank below older texts
 * holding "lanternflyXh" that also have a semantic score already.
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

/**
 * Letters that lower case does not fold to what people type for them: dotless ı (Turkish "kırmızı"
 * is found by "kirmizi"), ß (by "strasse"), final ς (by a σ).
 */
const FOLDS: Record<string, string> = { ı: 'i', ß: 'ss', ς: 'σ' };

/**
 * A word folded (accents off, lower case); null for a stop word. Accents come off letters of the
 * Latin, Greek and Cyrillic scripts only: elsewhere a combining mark is a vowel of the word
 * (Devanagari's), not an accent on it.
 */
function folded(word: string): string | null {
  const plain = word
    .normalize('NFD')
    .replace(/([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[ıßς]/g, (letter) => FOLDS[letter]!);
  return plain.length === 0 || STOP_WORDS.has(plain) ? null : plain;
}

/** A word as its meaning is indexed and searched: folded, stemmed; null for a stop word. */
function lexicalTerm(word: string): string | null {
  const plain = folded(word);
  if (plain === null) return null;
  return /^[a-z]+$/.test(plain) ? stemmer(plain) : plain;
}

/** What a word is indexed under: its stem and, where it differs, the word as written. */
function indexTerms(word: string): string[] | null {
  const plain = folded(word);
  if (plain === null) return null;
  const stem = lexicalTerm(plain)!;
  return stem === plain ? [stem] : [stem, plain];
}

/** The word with two neighbouring letters swapped, each way (typed too fast). */
function swaps(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < word.length; i++) {
    if (word[i] === word[i + 1]) continue;
    out.push(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
  return out;
}

const FUZZY_FROM = 5;
/** Shorter words match as a prefix only when last: "app" would match "apple", "approve", … */
const PREFIX_FROM = 4;

/**
 * The terms one query word is searched under — its stem, as written, and for a longer word its
 * swapped-letter variants (exact only) — each naming the word it stands for.
 */
function queryTerms(words: string[]): {
  terms: Map<string, Set<number>>;
  fuzzy: Set<string>;
  prefixed: Set<string>;
} {
  const terms = new Map<string, Set<number>>();
  const fuzzy = new Set<string>();
  // the last word (typed ahead) and every longer word (typed short): its stem and as written
  const prefixed = new Set<string>();
  const add = (term: string, origin: number) => {
    const origins = terms.get(term) ?? new Set<number>();
    origins.add(origin);
    terms.set(term, origins);
  };
  for (const [origin, word] of words.entries()) {
    for (const term of indexTerms(word) ?? []) {
      add(term, origin);
      if (origin === words.length - 1 || term.length >= PREFIX_FROM) prefixed.add(term);
    }
    // the typo allowances go on the word as written (a typo may cut its stem elsewhere)
    const plain = folded(word);
    if (plain && plain.length >= FUZZY_FROM) {
      fuzzy.add(plain);
      for (const swapped of swaps(plain)) add(swapped, origin);
    }
  }
  return { terms, fuzzy, prefixed };
}

/** Scripts written without spaces between words (and Korean, whose words carry particles). */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * Words are runs of letters (with their combining marks: "naïve" typed as i + U+0308 is one word)
 * and digits: "E-1042" is "e" and "1042", "ada.lovelace@x.io" four. A run of a script written
 * without spaces is its characters and their pairs (bigrams, as CJK full-text indexes do), so
 * "用户" is found inside "我们的用户希望…".
 */
function tokenize(text: string): string[] {
  const words: string[] = [];
  for (const word of text.normalize('NFC').split(/[^\p{L}\p{N}\p{M}]+/u)) {
    if (!word) continue;
    const rest = word.replace(UNSPACED, (run) => {
      const chars = [...run];
      words.push(...chars);
      for (let i = 0; i + 1 < chars.length; i++) words.push(chars[i]! + chars[i + 1]!);
      return ' ';
    });
    if (rest === word) words.push(word);
    else words.push(...rest.split(' ').filter(Boolean));
  }
  return words;
}

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
    processTerm: (term) => indexTerms(term) ?? false,
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
      const words = tokenize(query).filter((word) => folded(word) !== null);
      if (words.length === 0) return [];
      const { terms, fuzzy, prefixed } = queryTerms(words);
      const origins = new Set([...terms.values()].flatMap((set) => [...set]));
      // the terms are final: MiniSearch must not tokenize or process them again
      const results: SearchResult[] = index.search([...terms.keys()].join(' '), {
        tokenize: (text) => text.split(' '),
        processTerm: (term) => term,
        prefix: (term) => prefixed.has(term),
        fuzzy: (term) => (fuzzy.has(term) ? 0.2 : false),
        combineWith: 'OR',
        filter: allow ? (result) => allow(String(result.id)) : undefined,
      });
      // the query words each text holds as typed (its stem, as written, a swapped variant, or
      // typed short), and the words some text holds so: a typo match of such a word is another
      // word ("lanternflyXh" for "lanternflyXk"), not a typo, and covers nothing
      const asTyped = results.map((result) => {
        const words = new Set<number>();
        for (const term of result.queryTerms) {
          const exact =
            result.terms.includes(term) ||
            (prefixed.has(term) && result.terms.some((t) => t.startsWith(term)));
          if (exact) for (const origin of terms.get(term) ?? []) words.add(origin);
        }
        return words;
      });
      const held = new Set(asTyped.flatMap((words) => [...words]));
      return results.map((result, i) => {
        const found = new Set(asTyped[i]);
        for (const term of result.queryTerms) {
          for (const origin of terms.get(term) ?? []) if (!held.has(origin)) found.add(origin);
        }
        return {
          id: String(result.id),
          score: result.score,
          coverage: Math.min(1, found.size / origins.size),
        };
      });
    },
  };
}
