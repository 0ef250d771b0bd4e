/**
 * The note aggregate: one stream per note, `note-<userId>.<noteId>`. Note ids are generated
 * without dots, so the last dot separates the user id from the note id.
 */
import type { Decider } from '../shared/decider.js';
import { decideNote, type NoteCommand } from './decide.js';
import type { NoteEvent } from './events.js';
import { splitUserScopedStream } from '../shared/user-scoped.js';
import { evolveNote, initialNoteState, type NoteState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './request-claim.js';
export * from './rules.js';
export * from './state.js';

export const noteDecider: Decider<NoteState, NoteCommand, NoteEvent> = {
  initialState: initialNoteState,
  evolve: evolveNote,
  decide: decideNote,
};

export const noteStreamPrefix = 'note-';

export function noteStreamId(userId: string, noteId: string): string {
  return `${noteStreamPrefix}${userId}.${noteId}`;
}

export function parseNoteStreamId(streamId: string): { userId: string; noteId: string } | null {
  const parts = splitUserScopedStream(noteStreamPrefix, streamId);
  return parts && { userId: parts.userId, noteId: parts.id };
}
