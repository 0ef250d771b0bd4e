/**
 * The adapters' shared arithmetic for `countBehindHead` (types.ts). Each reads the positions of
 * the newest events back from the head, newest first, until it passes the lowest position asked
 * about or has `cap` of them; the events after a position are then those of that list above it —
 * exact below `cap`, and `cap` ("at least") when the list was cut short before reaching it.
 * Positions are only compared here, never subtracted: the port does not promise they are dense.
 */

export function assertCap(cap: number): void {
  if (!Number.isInteger(cap) || cap < 1) {
    throw new RangeError(`cap must be a positive integer, got ${cap}`);
  }
}

/** The read stops at an event at or below this (undefined: only the head is wanted). */
export function lowestOf(positions: readonly bigint[]): bigint | undefined {
  let lowest: bigint | undefined;
  for (const p of positions) if (lowest === undefined || p < lowest) lowest = p;
  return lowest;
}

/** Per position: how many of `newestFirst` (descending) lie above it, at most `cap`. */
export function countsAbove(
  newestFirst: readonly bigint[],
  positions: readonly bigint[],
  cap: number,
): number[] {
  return positions.map((position) => {
    let low = 0;
    let high = newestFirst.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (newestFirst[middle] > position) low = middle + 1;
      else high = middle;
    }
    return Math.min(low, cap);
  });
}
