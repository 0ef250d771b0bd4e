/**
 * Queries over the notes read model. Every filter starts with the caller's userId: another
 * user's note is indistinguishable from a missing one.
 *
 * Listing is a keyset walk on (updatedAt desc, id desc), "most recently updated first". It is
 * stable while notes change: a page token is a position in that order, not an offset, so
 * inserts and updates never shift later pages, and nothing is ever returned twice. A note
 * changed during a walk moves to the front (its updatedAt is newer than the token), so the
 * rest of that walk does not show it again, and if it had not been reached yet, this walk
 * skips it — it is "newer than the walk", and the sync feed or the next walk carries it.
 * Every note left unchanged during the walk is returned exactly once.
 */
import { InvalidArgument } from '../../commands/shared/errors.js';
import type { Filter, ReadStore } from '../../src/readstore/types.js';
import { type NoteDoc, noteDocId, notesCollection, publicNote } from './document.js';
import { decodePageToken, encodePageToken } from './page-token.js';

export const noteListLimits = { min: 1, max: 100, default: 20 } as const;

export type NoteView = ReturnType<typeof publicNote>;

export interface ListNotesOptions {
  limit?: number;
  pageToken?: string;
  includeDeleted?: boolean;
}

export async function listNotes(
  store: ReadStore,
  userId: string,
  options: ListNotesOptions = {},
): Promise<{ notes: NoteView[]; nextPageToken: string | null }> {
  const limit = options.limit ?? noteListLimits.default;
  if (!Number.isInteger(limit) || limit < noteListLimits.min || limit > noteListLimits.max) {
    throw new InvalidArgument(
      `limit must be an integer from ${noteListLimits.min} to ${noteListLimits.max}`,
    );
  }
  const filter: Filter = { userId };
  if (!options.includeDeleted) filter.deletedAt = null;
  if (options.pageToken) {
    const after = decodePageToken(options.pageToken);
    filter.$or = [
      { updatedAt: { $lt: after.updatedAt } },
      { updatedAt: after.updatedAt, id: { $lt: after.id } },
    ];
  }
  const docs = await store
    .collection<NoteDoc>(notesCollection)
    .find(filter, { sort: { updatedAt: -1, id: -1 }, limit: limit + 1 });
  const page = docs.slice(0, limit);
  const last = page.at(-1);
  return {
    notes: page.map(publicNote),
    nextPageToken:
      docs.length > limit && last
        ? encodePageToken({ updatedAt: last.updatedAt, id: last.id })
        : null,
  };
}

/** One note, trashed or not (a trashed note reads with deletedAt set); null when not the caller's. */
export async function getNote(
  store: ReadStore,
  userId: string,
  noteId: string,
): Promise<NoteView | null> {
  const doc = await store
    .collection<NoteDoc>(notesCollection)
    .findOne({ _id: noteDocId(userId, noteId), userId });
  return doc ? publicNote(doc) : null;
}

/** Several of the caller's notes by id (for the sync feed); missing ids are left out. */
export async function getNotes(
  store: ReadStore,
  userId: string,
  noteIds: readonly string[],
): Promise<NoteView[]> {
  if (noteIds.length === 0) return [];
  const docs = await store
    .collection<NoteDoc>(notesCollection)
    .find({ userId, _id: { $in: noteIds.map((id) => noteDocId(userId, id)) } });
  return docs.map(publicNote);
}
