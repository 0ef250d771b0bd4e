/**
 * The note operations (spec "Notes"): list, create, read, PUT, trash and restore, history, a
 * note's tags one at a time, and search. Reads carry the note's ETag (`"<revision>"`); writes
 * honour If-Match (412 when the note changed).
 */
import type { NotesHttpDeps, NotesOperation } from '../types.js';
import { createNoteOperation } from './create-note.js';
import { listNotesOperation } from './list-notes.js';
import { noteEditOperations } from './note-edits.js';
import { noteTagOperations } from './note-tags.js';
import { getNoteOperation, noteHistoryOperation } from './read-note.js';
import { searchNotesOperation } from './search-notes.js';

export function noteOperations(deps: NotesHttpDeps): NotesOperation[] {
  return [
    listNotesOperation(deps),
    createNoteOperation(deps),
    getNoteOperation(deps),
    ...noteEditOperations(deps),
    noteHistoryOperation(deps),
    ...noteTagOperations(deps),
    searchNotesOperation(deps),
  ];
}
