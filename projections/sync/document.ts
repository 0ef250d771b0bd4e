/**
 * The sync change feed: one document per change to one of a user's notes, tags or devices,
 * numbered per user 1, 2, 3, … in log order, so a device asks "what changed after N" and gets
 * the rest in order. A tag's or a device's change (a rename above all) is an entry of its own:
 * a device that shows notes' tags and device names by their ids learns the new name from the
 * feed, not only from listing tags and devices again.
 *
 * Retention: the newest `retainPerUser` changes of each user are kept (default 10,000; older
 * ones are deleted as new ones arrive). A cursor older than the oldest kept change cannot be
 * answered completely, so the query says "resync required" (list everything, then continue
 * from the cursor it returns). A device that syncs at least once per 10,000 changes of its
 * user never has to resync.
 */
export const syncChangesCollection = 'note_sync_changes';
export const syncHeadsCollection = 'note_sync_heads';
export const defaultSyncRetention = 10_000;

export type SyncChangeKind = 'created' | 'updated' | 'trashed' | 'restored' | 'deleted';

/** What changed: a note (created, updated, trashed, restored), a tag (created, updated, deleted) or a device (created, updated). */
export type SyncSubject =
  | { kind: 'note'; noteId: string }
  | { kind: 'tag'; tagId: string }
  | { kind: 'device'; deviceId: string };

export type SyncChangeDoc = SyncSubject & {
  /** `<userId>.<seq>` */
  _id: string;
  userId: string;
  seq: number;
  change: SyncChangeKind;
  /** the note's, tag's or device's revision after this change */
  revision: number;
  at: number;
  /** global position of the event (hex, see positionKey) — identifies it for repair */
  position: string;
};

/**
 * Per-user counter: last sequence number, oldest one still kept, and the changes of the last
 * event: its own (`last`) and, for a tag's delete, those of the tags it moved up (`moved`).
 */
export type SyncHeadDoc = {
  _id: string;
  seq: number;
  oldestSeq: number;
  last: SyncChangeDoc;
  moved?: SyncChangeDoc[];
};

export function syncChangeId(userId: string, seq: number): string {
  return `${userId}.${seq}`;
}

export type SyncChangeView = SyncSubject & {
  seq: number;
  change: SyncChangeKind;
  revision: number;
  at: number;
};

export function publicChange(doc: SyncChangeDoc): SyncChangeView {
  const { _id, _pos, userId, position, ...rest } = doc as SyncChangeDoc & { _pos?: string };
  return rest;
}
