/**
 * What the changelog projector knows of every item, in its own collection (a projector reads no
 * other read model): whether it is shipped, and the item it is merged into. An entry claims its
 * item shipped, so it is listed only while that holds (queries.ts `SHOWN`):
 *  - of the item as it is when the entry is published, in log order: a status change or a merge
 *    landing between draft_changelog_entry's read of the item and its append is not missed;
 *  - while the item is merged, of its survivor: the merged item lives on in it ("effect on the
 *    merged items' status: not shown"), and the board shows the survivor's status for its key.
 *    Only the survivor it was merged into is followed: a survivor merged in turn keeps the status
 *    it had, as every merged item does, and so does the entry.
 * An item captured has status `new`, so an item with no record here was never shipped.
 */
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

/** The item an entry announcing `itemKey` follows now, and whether that one is shipped. */
export async function claimOf(
  store: ReadStore,
  workspaceId: string,
  itemKey: string,
): Promise<{ _follows: string; _shipped: boolean }> {
  const records = recordsOf(store);
  const own = await records.findOne({ _id: itemId(workspaceId, itemKey) });
  const follows = own?.survivor ?? itemKey;
  const followed =
    follows === itemKey ? own : await records.findOne({ _id: itemId(workspaceId, follows) });
  return { _follows: follows, _shipped: followed?.shipped === true };
}
