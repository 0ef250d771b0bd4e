/**
 * The vectors of one scope (a workspace, a user) packed in one block of memory so a search is
 * one brute-force pass of dot products. The pass runs in a WebAssembly SIMD kernel
 * (kernel/simd-dot-kernel.ts; plain JavaScript where SIMD is unavailable) in float32, and the
 * finalists are rescored exactly (kernel/exact-top.ts), so scores and ranking are exact while the
 * pass stays a fraction of the time it takes to embed the query. At ~10 000 × 512 floats no
 * approximate index is needed. An arena's memory is its own (a WebAssembly.Memory per arena, which
 * cannot shrink): dropping the arena is what frees it, once the garbage collector runs.
 */
import { createDotKernel, type DotKernel, type KernelChoice } from './kernel/dot-kernel.js';
import { exactDot, exactTop, norm } from './kernel/exact-top.js';
import { cosineToScore } from './vector-codec.js';

export interface SearchHit {
  id: string;
  /** in [0, 1], higher is closer (see cosineToScore) */
  score: number;
}

export type IdFilter = ReadonlySet<string> | ((id: string) => boolean);

export interface ScopeArena {
  readonly size: number;
  /** bytes of memory the arena holds: its kernel's and the norms */
  readonly bytes: number;
  set(id: string, vector: Float32Array): void;
  delete(id: string): boolean;
  /**
   * best `limit` hits with score ≥ minScore and > 0, best first; equal scores in id order
   * (so the answer does not depend on insertion or deletion history)
   */
  top(query: Float32Array, limit: number, minScore: number, allow?: IdFilter): SearchHit[];
  /** the score of one id against the query, as `top` computes it; 0 when the id has no vector */
  score(id: string, query: Float32Array): number;
}

export interface ScopeArenaOptions {
  /** 'auto' (default) uses WebAssembly SIMD when the runtime validates it */
  kernel?: KernelChoice;
}

export function createScopeArena(
  dimensions: number,
  initialCapacity = 64,
  options: ScopeArenaOptions = {},
): ScopeArena {
  const kernel: DotKernel = createDotKernel(dimensions, initialCapacity, options.kernel);
  let norms = new Float64Array(kernel.capacity);
  const ids: string[] = [];
  const slots = new Map<string, number>();
  const byId = (a: number, b: number) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0);

  return {
    get size() {
      return ids.length;
    },
    get bytes() {
      return kernel.bytes + norms.byteLength;
    },
    set(id, vector) {
      if (vector.length !== dimensions) return; // another provider's vector never mixes in
      let slot = slots.get(id);
      if (slot === undefined) {
        slot = ids.length;
        kernel.reserve(slot + 1);
        if (norms.length < kernel.capacity) {
          const bigger = new Float64Array(kernel.capacity);
          bigger.set(norms);
          norms = bigger;
        }
        ids.push(id);
        slots.set(id, slot);
      }
      kernel.vectors.set(vector, slot * kernel.stride);
      norms[slot] = norm(vector);
    },
    delete(id) {
      const slot = slots.get(id);
      if (slot === undefined) return false;
      // the last vector moves into the hole, keeping the arena dense
      const last = ids.length - 1;
      if (slot !== last) {
        const stride = kernel.stride;
        kernel.vectors.copyWithin(slot * stride, last * stride, (last + 1) * stride);
        norms[slot] = norms[last];
        ids[slot] = ids[last];
        slots.set(ids[slot], slot);
      }
      ids.pop();
      slots.delete(id);
      return true;
    },
    score(id, query) {
      const slot = slots.get(id);
      if (slot === undefined || query.length !== dimensions) return 0;
      return cosineToScore(exactDot(kernel.vectors, slot * kernel.stride, query, dimensions));
    },
    top(query, limit, minScore, allow) {
      if (limit <= 0 || query.length !== dimensions) return [];
      const allowed =
        allow === undefined
          ? undefined
          : typeof allow === 'function'
            ? (slot: number) => allow(ids[slot])
            : (slot: number) => allow.has(ids[slot]);
      const best = exactTop({
        kernel,
        count: ids.length,
        dimensions,
        norms,
        query,
        limit,
        minScore,
        allowed,
        tieBreak: byId,
      });
      return best.map(({ slot, dot }) => ({ id: ids[slot], score: cosineToScore(dot) }));
    },
  };
}
