/** Capacity growth shared by the kernels: doubling, so n inserts copy O(n) floats in total. */
export function grownCapacity(current: number, needed: number): number {
  let capacity = Math.max(current, 1);
  while (capacity < needed) capacity *= 2;
  return capacity;
}
