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
  /** one normalised vector per text, in order */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /**
   * Frees what the model holds outside the JavaScript heap (TF.js tensors in WebAssembly memory,
   * which garbage collection never reclaims); the embedder is not used after it.
   */
  close?(): Promise<void> | void;
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
