/**
 * A persistent set of log positions that counts those below a position in O(log n): where a
 * person stands among an item's people and +1s (roster.ts) without walking all of them. A binary
 * tree over blocks of 32 positions, a count per node and a bit per position in the leaves; a
 * change copies one path and shares the rest, so a set handed out never changes.
 */
interface Node {
  readonly count: number;
  readonly left: Node | null;
  readonly right: Node | null;
  /** in a leaf: which of its block's 32 positions are in the set */
  readonly bits: number;
}

export interface Positions {
  readonly root: Node | null;
  /** the tree covers the blocks [0, 2^depth) */
  readonly depth: number;
}

export const noPositions: Positions = { root: null, depth: 0 };

const BLOCK = 32;

/** The set with `at` added (it must not be in it yet). */
export function withPosition(set: Positions, at: number): Positions {
  let { root, depth } = set;
  while (Math.floor(at / BLOCK) >= 2 ** depth) {
    root = root && { count: root.count, left: root, right: null, bits: 0 };
    depth++;
  }
  return { root: changed(root, depth, at, 1), depth };
}

/** The set without `at` (it must be in it). */
export function withoutPosition(set: Positions, at: number): Positions {
  return { root: changed(set.root, set.depth, at, -1), depth: set.depth };
}

/** How many positions of the set are below `at`. */
export function countBelow(set: Positions, at: number): number {
  let node = set.root;
  let depth = set.depth;
  let block = Math.floor(at / BLOCK);
  if (!node || block >= 2 ** depth) return node?.count ?? 0;
  let below = 0;
  while (node && depth > 0) {
    const half = 2 ** (depth - 1);
    if (block >= half) {
      below += node.left?.count ?? 0;
      node = node.right;
      block -= half;
    } else node = node.left;
    depth--;
  }
  return below + (node ? ones(node.bits & (2 ** (at % BLOCK) - 1)) : 0);
}

function changed(node: Node | null, depth: number, at: number, by: number): Node | null {
  const count = (node?.count ?? 0) + by;
  if (count === 0) return null;
  if (depth === 0) {
    const bit = 2 ** (at % BLOCK);
    const bits = by > 0 ? (node?.bits ?? 0) | bit : (node?.bits ?? 0) & ~bit;
    return { count, left: null, right: null, bits };
  }
  const half = 2 ** (depth - 1) * BLOCK;
  const left = node?.left ?? null;
  const right = node?.right ?? null;
  return at < half
    ? { count, left: changed(left, depth - 1, at, by), right, bits: 0 }
    : { count, left, right: changed(right, depth - 1, at - half, by), bits: 0 };
}

/** How many bits of a 32-bit number are set. */
function ones(bits: number): number {
  let v = bits - ((bits >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
