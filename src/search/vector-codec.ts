/**
 * How vectors and texts are stored in the read store, and how a cosine becomes a score.
 */
import { createHash } from 'node:crypto';

/** Float32 little-endian bytes as base64: ~2.7 KB for 512 dimensions, a third of a JSON array. */
export function encodeVector(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
}

export function decodeVector(encoded: string): Float32Array {
  const bytes = Buffer.from(encoded, 'base64');
  // copied into a fresh buffer: Node's pooled Buffers need not be 4-byte aligned
  const vector = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(vector.buffer).set(bytes);
  return vector;
}

/** Decides whether a text changed since it was embedded (a replayed event re-embeds nothing). */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/**
 * Score in [0, 1], higher is closer: the cosine of two unit vectors, with negative cosines
 * (pointing away: unrelated for a sentence encoder) floored at 0 and rounding above 1 capped.
 * Positive cosines pass through unchanged so thresholds read as plain cosine similarities.
 */
export function cosineToScore(cosine: number): number {
  if (!(cosine > 0)) return 0;
  return Math.min(cosine, 1);
}
