/**
 * The sync feed query: changes of the caller's notes, tags and devices after a cursor, oldest
 * first.
 *
 * Cursors are opaque (base64url of the last sequence number seen; the HTTP layer signs them for
 * their user). No cursor means "from the beginning"; `null`, a cursor not handed to this user.
 * The answer is `resync-required` — with a fresh cursor to continue from after a
 * full listing — when the cursor is older than the oldest change still kept, or is not a
 * cursor this feed handed out (malformed, or beyond the newest change).
 */
import type { ReadStore } from '../../src/readstore/types.js';
import { InvalidArgument } from '../../commands/shared/errors.js';
import {
  publicChange,
  type SyncChangeDoc,
  type SyncChangeView,
  type SyncHeadDoc,
  syncChangesCollection,
  syncHeadsCollection,
} from './document.js';

export const syncLimits = { min: 1, max: 500, default: 100 } as const;

export type SyncResult =
  | { status: 'ok'; changes: SyncChangeView[]; cursor: string; hasMore: boolean }
  | { status: 'resync-required'; reason: 'expired' | 'unknown'; cursor: string };

/**
 * `d<seq>`. Before the feed carried tags' and devices' changes (projector note-sync@2) it was
 * `s<seq>`, numbering notes' changes only, and before it carried the tags a delete moves up
 * (note-sync@3) `c<seq>`: such a cursor would name another place in the renumbered feed, so it is
 * not read (resync, "unknown").
 */
export function encodeSyncCursor(seq: number): string {
  return Buffer.from(`d${seq}`).toString('base64url');
}

export function decodeSyncCursor(cursor: string): number | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^d(0|[1-9][0-9]{0,15})$/.exec(text);
  return match ? Number(match[1]) : null;
}

export async function syncChanges(
  store: ReadStore,
  userId: string,
  cursor: string | null | undefined,
  options: { limit?: number } = {},
): Promise<SyncResult> {
  const limit = options.limit ?? syncLimits.default;
  if (!Number.isInteger(limit) || limit < syncLimits.min || limit > syncLimits.max) {
    throw new InvalidArgument(
      `limit must be an integer from ${syncLimits.min} to ${syncLimits.max}`,
    );
  }
  const head = await store.collection<SyncHeadDoc>(syncHeadsCollection).findOne({ _id: userId });
  const headSeq = head?.seq ?? 0;
  const oldestSeq = head?.oldestSeq ?? 1;
  const after = cursor === undefined ? 0 : cursor === null ? null : decodeSyncCursor(cursor);
  if (after === null || after > headSeq) {
    return { status: 'resync-required', reason: 'unknown', cursor: encodeSyncCursor(headSeq) };
  }
  if (after < oldestSeq - 1) {
    return { status: 'resync-required', reason: 'expired', cursor: encodeSyncCursor(headSeq) };
  }
  const docs = await store
    .collection<SyncChangeDoc>(syncChangesCollection)
    .find({ userId, seq: { $gt: after } }, { sort: { seq: 1 }, limit });
  const last = docs.at(-1)?.seq ?? after;
  return {
    status: 'ok',
    changes: docs.map(publicChange),
    cursor: encodeSyncCursor(last),
    hasMore: last < headSeq,
  };
}
