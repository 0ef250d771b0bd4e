/**
 * The notes read model: one document per note, owned by the `notes` projector. Times are
 * milliseconds since the epoch (the events' occurredAt). `tags` holds tag ids; the API layer
 * resolves them to names. `revision` is the note stream's revision, the note's ETag.
 */
import type { NoteMetadata } from '../../commands/note/index.js';

export const notesCollection = 'notes';

export type NoteDoc = {
  /** `<userId>.<noteId>`: unique across users, so a read by id is always scoped to its owner */
  _id: string;
  id: string;
  userId: string;
  title: string;
  content: string;
  tags: string[];
  /** latitude, longitude, deviceId, placeName — each null when not captured */
  metadata: NoteMetadata;
  createdAt: number;
  updatedAt: number;
  /** set while the note is in the trash */
  deletedAt: number | null;
  revision: number;
};

export function noteDocId(userId: string, noteId: string): string {
  return `${userId}.${noteId}`;
}

/** The document without the store's bookkeeping fields (`_id`, `_pos`). */
export function publicNote(doc: NoteDoc): Omit<NoteDoc, '_id'> {
  const { _id, _pos, ...rest } = doc as NoteDoc & { _pos?: string };
  return rest;
}
