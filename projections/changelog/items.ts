/**
 * What the changelog projector knows of every item, in its own collection (a projector reads no
 * other read model): whether it is shipped, and the item it is merged into. An entry claims its
 * item shipped, so it is listed only while that holds (queries.ts `SHOWN`):
 *  - of the item as it is when the entry is published, in log order: a status change or a merge
 *    landing between draft_changelog_entry's read of the item and its append is not missed;
 *  - while the item is merged, of its final survivor, the end of its merges (A merged into B,
 *    then B into C: C, walked with `mergeChain` as every follower of a merge walks it): the
 *    merged item lives on there ("effect on the merged items' status: not shown"), and the board
 *    shows that survivor for its key. The entry keeps the chain it followed (`_through`), so a
 *    merge or unmerge of any item on it moves the entry to the chain's new end.
 * An item captured has status `new`, so an item with no record here was never shipped.
 */
import { mergeChain } from '../../commands/item/index.js';
import { FailedPrecondition } from '../../commands/shared/errors.js';
import type { Collection, Doc, ReadStore } from '../../src/readstore/types.js';
import { guardedUpdate } from '../shared/guard.js';

interface ChangelogItemDoc extends Doc {
  shipped?: boolean;
  /** the item it is merged into; null or absent while it is not merged */
  survivor?: string | null;
}

export const CHANGELOG_ITEMS = 'changelog_items';
const recordsOf = (s: ReadStore): Collection<ChangelogItemDoc> => s.collection(CHANGELOG_ITEMS);
const itemId = (workspaceId: string, itemKey: string) => `${workspaceId}.${itemKey}`;

export async function recordItem(
  store: ReadStore,
  workspaceId: string,
  itemKey: string,
  position: bigint,
  fields: { shipped: boolean } | { survivor: string | null },
): Promise<void> {
  await guardedUpdate(
    recordsOf(store),
    itemId(workspaceId, itemKey),
    position,
    { $set: fields },
    {
      upsert: true,
    },
  );
}

/** What an entry announcing an item claims about it now (ChangelogEntryDoc's fields). */
export interface Claim {
  /** the item whose status counts: the announced one, or the end of its merges */
  _follows: string;
  /** the announced item, then each item it was merged into, to `_follows` */
  _through: string[];
  _shipped: boolean;
}

/** The item an entry announcing `itemKey` follows now, the way there, and whether it is shipped. */
export async function claimOf(
  store: ReadStore,
  workspaceId: string,
  itemKey: string,
): Promise<Claim> {
  const records = recordsOf(store);
  const read = new Map<string, ChangelogItemDoc | null>();
  const recordOf = async (key: string) => {
    if (!read.has(key)) read.set(key, await records.findOne({ _id: itemId(workspaceId, key) }));
    return read.get(key) ?? null;
  };
  let through: string[];
  try {
    through = await mergeChain(itemKey, async (key) => (await recordOf(key))?.survivor ?? null);
  } catch (error) {
    // a chain that loops (merges never do: merge.ts) stops no projection: the entry follows the
    // item it was merged into
    if (!(error instanceof FailedPrecondition)) throw error;
    const survivor = (await recordOf(itemKey))?.survivor;
    through = survivor ? [itemKey, survivor] : [itemKey];
  }
  const follows = through.at(-1)!;
  return {
    _follows: follows,
    _through: through,
    _shipped: (await recordOf(follows))?.shipped === true,
  };
}

/**
 * Which of `among` live inside one of `items` now, at any depth (A merged into B, B into C: A
 * lives inside B), by the survivors recorded here: what an unmerge of B from C gives back with
 * B, and a new merge of B brings back with it.
 */
export async function livingInside(
  store: ReadStore,
  workspaceId: string,
  items: readonly string[],
  among: readonly string[],
): Promise<string[]> {
  const outer = new Set(items);
  const candidates = among.filter((key) => !outer.has(key));
  if (outer.size === 0 || candidates.length === 0) return [];
  const records = await recordsOf(store).find({
    _id: { $in: candidates.map((key) => itemId(workspaceId, key)) },
  });
  const survivorOf = new Map(records.map((r) => [r._id.slice(workspaceId.length + 1), r.survivor]));
  // the walk every follower of a merge takes: it ends at an item of `items` (none is a candidate,
  // so none has a survivor here) exactly when the candidate lives inside it
  const inside = async (key: string): Promise<boolean> => {
    try {
      const chain = await mergeChain(key, async (at) => survivorOf.get(at) ?? null);
      return outer.has(chain.at(-1)!);
    } catch (error) {
      // a chain that loops (merges never do: merge.ts) leads inside nothing
      if (error instanceof FailedPrecondition) return false;
      throw error;
    }
  };
  const found = await Promise.all(candidates.map(inside));
  return candidates.filter((_, i) => found[i]);
}
