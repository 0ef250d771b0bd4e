/**
 * Picks the best hits from a kernel's approximate scores, then rescores the finalists exactly,
 * so reported scores and their order are those of exact dot products, whatever the kernel.
 *
 * Why nothing is missed: each approximate dot `a` is within `e` of the exact one, so
 * [a − e, a + e] brackets it. Let L be the limit-th largest lower bound among slots that are
 * surely eligible (lower bound > 0 and ≥ minScore). Those `limit` slots have exact dots ≥ L, so
 * the limit-th best exact dot is ≥ L too, and every slot that belongs in the answer has an
 * upper bound ≥ L. Keeping every slot with upper bound ≥ L therefore keeps all of the answer
 * (ties included) — typically `limit` plus a handful, which are then scored exactly.
 */
import type { DotKernel } from './dot-kernel.js';

export interface ScoredSlot {
  slot: number;
  /** exact dot product: float32 inputs multiplied and summed in order in doubles */
  dot: number;
}

export interface TopRequest {
  kernel: DotKernel;
  count: number;
  dimensions: number;
  /** ‖vector‖ of every slot */
  norms: Float64Array;
  query: Float32Array;
  limit: number;
  minScore: number;
  /** applied to candidates only; slots it refuses neither appear nor count toward the cut */
  allowed?: (slot: number) => boolean;
  /** orders exact ties, so the answer does not depend on where a vector sits in the arena */
  tieBreak: (a: number, b: number) => number;
}

/** Absolute slack for float32 underflow in the kernel (products below 2⁻¹²⁶ lose bits). */
const UNDERFLOW_SLACK = 1e-30;

export function exactTop(request: TopRequest): ScoredSlot[] {
  const { kernel, count, norms, query, limit, minScore, allowed } = request;
  if (limit <= 0 || count === 0) return [];
  const approx = kernel.dots(query, count);
  const errorScale = kernel.relativeError * norm(query);
  // the `limit` largest surely-eligible lower bounds, ascending; cut = the smallest once full
  const lows: number[] = [];
  let cut = Number.NEGATIVE_INFINITY;
  const candidates: number[] = [];
  const uppers: number[] = [];
  for (let slot = 0; slot < count; slot++) {
    const a = approx[slot];
    const e = errorScale * norms[slot] + UNDERFLOW_SLACK;
    const upper = a + e;
    // a zero score (orthogonal or opposite) is no match at all, whatever minScore says;
    // written so that NaN is skipped too
    if (!(upper >= cut && upper > 0 && upper >= minScore)) continue;
    if (allowed && !allowed(slot)) continue;
    candidates.push(slot);
    uppers.push(upper);
    const lower = a - e;
    if (lower > 0 && lower >= minScore && (lows.length < limit || lower > lows[0])) {
      let at = 0;
      while (at < lows.length && lows[at] < lower) at++;
      lows.splice(at, 0, lower);
      if (lows.length > limit) lows.shift();
      if (lows.length === limit) cut = lows[0];
    }
  }
  const hits: ScoredSlot[] = [];
  for (let i = 0; i < candidates.length; i++) {
    if (uppers[i] < cut) continue;
    const slot = candidates[i];
    const dot = exactDot(kernel.vectors, slot * kernel.stride, query, request.dimensions);
    if (dot > 0 && dot >= minScore) hits.push({ slot, dot });
  }
  hits.sort((x, y) => y.dot - x.dot || request.tieBreak(x.slot, y.slot));
  return hits.length > limit ? hits.slice(0, limit) : hits;
}

/** The reference dot product: in order, in doubles (products of float32s are exact there). */
export function exactDot(
  vectors: Float32Array,
  base: number,
  query: Float32Array,
  dimensions: number,
): number {
  let sum = 0;
  for (let d = 0; d < dimensions; d++) sum += vectors[base + d] * query[d];
  return sum;
}

export function norm(vector: ArrayLike<number>, from = 0, length = vector.length): number {
  let sum = 0;
  for (let d = from; d < from + length; d++) sum += vector[d] * vector[d];
  return Math.sqrt(sum);
}
