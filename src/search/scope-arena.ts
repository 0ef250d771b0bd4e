/**
 * The vectors of one scope (a workspace, a user) packed in one Float32Array so a search is a
 * tight brute-force loop of dot products: ~10 000 × 512 floats take a few milliseconds, less
 * than embedding the query itself, so no approximate index is needed at this size.
 */
import { cosineToScore } from './vector-codec.js';

export interface SearchHit {
  id: string;
  /** in [0, 1], higher is closer (see cosineToScore) */
  score: number;
}

export type IdFilter = ReadonlySet<string> | ((id: string) => boolean);

export interface ScopeArena {
  readonly size: number;
  set(id: string, vector: Float32Array): void;
  delete(id: string): boolean;
  /** best `limit` hits with score ≥ minScore and > 0, best first */
  top(query: Float32Array, limit: number, minScore: number, allow?: IdFilter): SearchHit[];
}

export function createScopeArena(dimensions: number, initialCapacity = 64): ScopeArena {
  let data = new Float32Array(dimensions * initialCapacity);
  const ids: string[] = [];
  const slots = new Map<string, number>();

  const grow = () => {
    const bigger = new Float32Array(data.length * 2 || dimensions * 64);
    bigger.set(data);
    data = bigger;
  };

  return {
    get size() {
      return ids.length;
    },
    set(id, vector) {
      if (vector.length !== dimensions) return; // another provider's vector never mixes in
      let slot = slots.get(id);
      if (slot === undefined) {
        slot = ids.length;
        if ((slot + 1) * dimensions > data.length) grow();
        ids.push(id);
        slots.set(id, slot);
      }
      data.set(vector, slot * dimensions);
    },
    delete(id) {
      const slot = slots.get(id);
      if (slot === undefined) return false;
      // the last vector moves into the hole, keeping the arena dense
      const last = ids.length - 1;
      if (slot !== last) {
        data.copyWithin(slot * dimensions, last * dimensions, (last + 1) * dimensions);
        ids[slot] = ids[last];
        slots.set(ids[slot], slot);
      }
      ids.pop();
      slots.delete(id);
      return true;
    },
    top(query, limit, minScore, allow) {
      if (limit <= 0) return [];
      const allowed =
        allow === undefined
          ? undefined
          : typeof allow === 'function'
            ? allow
            : (id: string) => allow.has(id);
      // locals, so the hot loop reads no closure variables
      const vectors = data;
      const count = ids.length;
      const dim = dimensions;
      const tail = dim - (dim % 4);
      // best hits so far, ascending by cosine, at most `limit` long
      const bestDots: number[] = [];
      const bestSlots: number[] = [];
      for (let slot = 0; slot < count; slot++) {
        if (allowed && !allowed(ids[slot])) continue;
        const base = slot * dim;
        let a = 0;
        let b = 0;
        let c = 0;
        let e = 0;
        for (let d = 0; d < tail; d += 4) {
          a += vectors[base + d] * query[d];
          b += vectors[base + d + 1] * query[d + 1];
          c += vectors[base + d + 2] * query[d + 2];
          e += vectors[base + d + 3] * query[d + 3];
        }
        for (let d = tail; d < dim; d++) a += vectors[base + d] * query[d];
        const dot = a + b + c + e;
        // a zero score (orthogonal or opposite) is no match at all, whatever minScore says
        if (dot <= 0 || dot < minScore || (bestDots.length === limit && dot <= bestDots[0]))
          continue;
        let at = 0;
        while (at < bestDots.length && bestDots[at] < dot) at++;
        bestDots.splice(at, 0, dot);
        bestSlots.splice(at, 0, slot);
        if (bestDots.length > limit) {
          bestDots.shift();
          bestSlots.shift();
        }
      }
      const hits: SearchHit[] = [];
      for (let i = bestDots.length - 1; i >= 0; i--) {
        hits.push({ id: ids[bestSlots[i]], score: cosineToScore(bestDots[i]) });
      }
      return hits;
    },
  };
}
