/**
 * The walk along a merge chain — A merged into B, then B into C — to its end, the final survivor
 * C: the one walk every follower of a merge takes, on the write side (src/feedback/actions/
 * merge-chain.ts: refusals, +1s, submissions, the board's pages) and in the read models (the
 * public changelog's claims, projections/changelog/items.ts). The decider knows only the item an
 * item was merged into (B).
 *
 * Merges do not loop: merge_items refuses a survivor that was merged away and undoes a merge
 * whose survivor went meanwhile (src/feedback/actions/merge.ts). Should a chain come back on
 * itself or run past MAX_MERGE_HOPS all the same, it is refused as broken rather than walked for
 * ever.
 */
import { FailedPrecondition } from '../shared/errors.js';

/** items followed from a merged one at most (merge_items takes 50 at once; chains are short) */
export const MAX_MERGE_HOPS = 50;

/**
 * The keys from `itemKey` to the end of its merges: `itemKey` first, the final survivor last
 * (`itemKey` alone when it was not merged). `survivorOf(key)`: the item `key` was merged into,
 * or null when it stands on its own (or is not there).
 */
export async function mergeChain(
  itemKey: string,
  survivorOf: (key: string) => Promise<string | null>,
): Promise<string[]> {
  const chain = [itemKey];
  for (let next = await survivorOf(itemKey); next !== null; next = await survivorOf(next)) {
    const loops = chain.includes(next);
    if (loops || chain.length > MAX_MERGE_HOPS) {
      const how = loops ? `come back to ${next}` : `run past ${MAX_MERGE_HOPS} items`;
      const walked = loops ? [...chain, next] : [...chain.slice(0, 5), '…'];
      throw new FailedPrecondition(
        `the merges from ${itemKey} ${how} (${walked.join(' → ')}); unmerge one of them`,
      );
    }
    chain.push(next);
  }
  return chain;
}
