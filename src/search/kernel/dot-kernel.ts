/**
 * A dot-product kernel: where the arena's vectors live and how a query is scored against all
 * of them at once. The scores it returns may be slightly off (float32 arithmetic); the arena
 * rescores its few finalists exactly, using `relativeError` to know which ones may be finalists.
 */
import { createScalarDotKernel } from './scalar-dot-kernel.js';
import { createSimdDotKernel, simdSupported } from './simd-dot-kernel.js';
import { WebAssemblySimdUnavailableError } from './wasm-runtime.js';

export { WebAssemblySimdUnavailableError } from './wasm-runtime.js';

export interface DotKernel {
  readonly kind: 'simd' | 'scalar';
  /** floats per slot: the dimension, padded up for SIMD lanes (the padding stays zero) */
  readonly stride: number;
  /** slots that fit before `reserve` must grow the storage */
  readonly capacity: number;
  /** every slot's floats, `stride` apart; replaced when `reserve` grows, so re-read it after */
  readonly vectors: Float32Array;
  /** bytes of memory the kernel holds (vectors and scratch): what a cache bound counts */
  readonly bytes: number;
  /** makes room for at least `slots` slots, keeping the vectors already stored */
  reserve(slots: number): void;
  /**
   * Approximate dot products of `query` with slots [0, count). The returned view is reused by
   * the next call. |approx − exact| ≤ relativeError · ‖vector‖ · ‖query‖ (+ float32 underflow).
   */
  dots(query: Float32Array, count: number): ArrayLike<number>;
  readonly relativeError: number;
}

export type KernelChoice = 'auto' | 'simd' | 'scalar';

export function createDotKernel(
  dimensions: number,
  initialCapacity: number,
  choice: KernelChoice = 'auto',
): DotKernel {
  const simd = choice !== 'scalar' && simdSupported();
  if (choice === 'simd' && !simd) throw new WebAssemblySimdUnavailableError();
  return simd
    ? createSimdDotKernel(dimensions, initialCapacity)
    : createScalarDotKernel(dimensions, initialCapacity);
}
