/**
 * Who still waits on a thread merged away. A merged item is read-only and leaves every listing,
 * so the survivor is the only place a question asked on it can still be answered: the merge
 * carries the merged thread's waiting person (its last speaker, when that is a person and the
 * thread was open) and whoever that thread carried itself. A maker's or an agent's reply on the
 * survivor answers them (changes() clears the list); an unmerge takes back what came with the
 * items it gives back. Read from the merged documents, which are read-only once merged, so a
 * replay in log order finds them as they stood at the merge.
 */
import type { Collection } from '../../src/readstore/types.js';
import { type CarriedWaiter, type ItemDoc, itemDocId } from './document.js';

const OPEN: readonly string[] = ['new', 'planned', 'in-progress'];

export async function waitersCarriedIn(
  items: Collection<ItemDoc>,
  survivor: ItemDoc,
  mergedKeys: readonly string[],
): Promise<CarriedWaiter[]> {
  const merged = await items.find({
    _id: { $in: mergedKeys.map((key) => itemDocId(survivor._ws, key)) },
  });
  const carried = [...(survivor._carriedWaiting ?? [])];
  for (const doc of merged) {
    if (!OPEN.includes(doc.status)) continue;
    const { kind, id, at } = doc._lastSpeaker;
    if (kind === 'person') carried.push({ id, at, from: doc.id });
    for (const waiter of doc._carriedWaiting ?? []) carried.push({ ...waiter, from: doc.id });
  }
  return carried;
}
