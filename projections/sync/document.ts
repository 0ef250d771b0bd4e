/**
 * The sync change feed: one document per change to a note, numbered per user 1, 2, 3, … in
 * log order, so a device asks "what changed after N" and gets the rest in order.
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

export type SyncChangeKind = 'created' | 'updated' | 'trashed' | 'restored';

export type SyncChangeDoc = {
  /** `<userId>.<seq>` */
  _id: string;
  userId: string;
  seq: number;
  noteId: string;
  change: SyncChangeKind;
  /** the note's revision after this change */
  revision: number;
  at: number;
  /** global position of the event (hex, see positionKey) — identifies it for repair */
  position: string;
};

/** Per-user counter: last sequence number, oldest one still kept, and the last change written. */
export type SyncHeadDoc = {
  _id: string;
  seq: number;
  oldestSeq: number;
  last: SyncChangeDoc;
};

export function syncChangeId(userId: string, seq: number): string {
  return `${userId}.${seq}`;
}

export type SyncChangeView = Omit<SyncChangeDoc, '_id' | 'userId' | 'position'>;

export function publicChange(doc: SyncChangeDoc): SyncChangeView {
  const { _id, _pos, userId, position, ...rest } = doc as SyncChangeDoc & { _pos?: string };
  return rest;
}
