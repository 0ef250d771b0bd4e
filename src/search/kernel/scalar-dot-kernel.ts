/**
 * The fallback kernel for runtimes without WebAssembly SIMD: plain JavaScript over a
 * Float32Array, accumulating in doubles (so its error is far below the bound it reports).
 */
import { grownCapacity } from './capacity.js';
import type { DotKernel } from './dot-kernel.js';

export function createScalarDotKernel(dimensions: number, initialCapacity: number): DotKernel {
  const stride = dimensions;
  let capacity = Math.max(1, initialCapacity);
  let vectors = new Float32Array(stride * capacity);
  let out = new Float64Array(capacity);

  return {
    kind: 'scalar',
    stride,
    get capacity() {
      return capacity;
    },
    get vectors() {
      return vectors;
    },
    get bytes() {
      return vectors.byteLength + out.byteLength;
    },
    reserve(slots) {
      if (slots <= capacity) return;
      capacity = grownCapacity(capacity, slots);
      const bigger = new Float32Array(stride * capacity);
      bigger.set(vectors);
      vectors = bigger;
      out = new Float64Array(capacity);
    },
    dots(query, count) {
      // locals, so the hot loop reads no closure variables
      const data = vectors;
      const scores = out;
      const dim = stride;
      const tail = dim - (dim % 4);
      for (let slot = 0; slot < count; slot++) {
        const base = slot * dim;
        let a = 0;
        let b = 0;
        let c = 0;
        let e = 0;
        for (let d = 0; d < tail; d += 4) {
          a += data[base + d] * query[d];
          b += data[base + d + 1] * query[d + 1];
          c += data[base + d + 2] * query[d + 2];
          e += data[base + d + 3] * query[d + 3];
        }
        for (let d = tail; d < dim; d++) a += data[base + d] * query[d];
        scores[slot] = a + b + c + e;
      }
      return scores;
    },
    // products of float32s are exact in doubles; n additions err by at most n·2⁻⁵³ relative
    relativeError: (dimensions + 4) * 2 ** -52,
  };
}
