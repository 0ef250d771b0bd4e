/**
 * The Embedder port (DESIGN.md "Search"): turns texts into unit-length vectors so that a dot
 * product is the cosine similarity. Two adapters serve it: transformers.js with
 * all-MiniLM-L6-v2 from a local folder (transformers-embedder.ts) and the bundled offline
 * Universal Sentence Encoder lite (energetic-embedder.ts); create-embedder.ts picks one.
 */

export interface Embedder {
  /** which model serves, e.g. `transformers:all-MiniLM-L6-v2` or `energetic-ai:use-lite`; the
   * vector index records it and re-embeds everything when it changes */
  readonly provider: string;
  /** length of every vector */
  readonly dimensions: number;
  /** the most characters of a text it embeds (default MAX_EMBED_CHARS): more than it reads */
  readonly maxChars?: number;
  /**
   * One normalised vector per text, in order, of the text's first `maxChars` characters at
   * most (embeddablePrefix). `priority: 'query'` (a search's query) is embedded before any
   * background work (indexing) queued in the process's embedder thread (embedder-thread.ts);
   * adapters that embed on the caller's thread ignore it.
   */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /**
   * Frees what the model holds outside the JavaScript heap (TF.js tensors in WebAssembly memory,
   * which garbage collection never reclaims); the embedder is not used after it.
   */
  close?(): Promise<void> | void;
}

export interface EmbedOptions {
  /** `background` (default): indexing; `query`: a search waiting for its answer */
  priority?: 'query' | 'background';
  /**
   * aborted: the caller no longer wants the vectors (a stopping indexer). The embedder thread
   * drops the call's units it has not started and stops waiting for the bulk helper; an adapter
   * that cannot drop work may ignore it (`untilAborted` stops the caller waiting anyway).
   */
  signal?: AbortSignal;
}

/** `work`, or a rejection as soon as `signal` aborts: the caller stops waiting, the work goes on unseen. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/**
 * The most characters of a text any provider is given; the rest of the text is indexed by its
 * words only (the lexical index keeps all of it). Both providers read a bounded number of tokens
 * anyway, so the cut keeps everything they would read:
 * - all-MiniLM-L6-v2: 512 tokens (transformers.js truncates to the tokenizer's
 *   `model_max_length`: [CLS], 510 WordPieces, [SEP]). A WordPiece of English is ~4–5 characters
 *   with its space, so the 510 end near character 2,500; cut at 8,192 (at a space) they are all
 *   kept unless they average over ~16 characters (runs of blank space, 100-letter "words").
 * - the bundled encoder (energetic-embedder.ts): 128 tokens (its graph's ClipToMaxLength), each
 *   of at most 16 characters, so at most 2,048 characters; it cuts at ENERGETIC_MAX_CHARS, 4,096.
 * Uncut, a 100,000-character text cost the bundled encoder's tokenizer ~30 s of one core (its
 * time grows with the square of the length) for the same vector.
 */
export const MAX_EMBED_CHARS = 8_192;
/** how far back from the bound a cut looks for a space, so no word is cut in two */
const WORD_CUT_WINDOW = 64;

/**
 * The part of `text` that is embedded: all of it up to `maxChars`, else its first `maxChars`
 * characters at most, cut at a space when one is in the last 64 (a word, and so its tokens, is
 * never split then), never inside a surrogate pair.
 */
export function embeddablePrefix(text: string, maxChars = MAX_EMBED_CHARS): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  for (let at = end; at > end - WORD_CUT_WINDOW; at--) {
    if (/\s/.test(text[at]!)) return text.slice(0, at);
  }
  return text.slice(0, end);
}

/** A model could not be loaded (missing files, bad format); the factory falls back on it. */
export class EmbedderUnavailableError extends Error {
  override readonly name = 'EmbedderUnavailableError';
  constructor(
    readonly provider: string,
    readonly reason: string,
  ) {
    super(`${provider} unavailable: ${reason}`);
  }
}

/** Scale to unit length in place; a zero vector stays zero (it then matches nothing). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] /= norm;
  return vector;
}
