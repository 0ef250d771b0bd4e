/**
 * update_note (PUT), delete_note (to the trash) and restore_note: one command each on the note's
 * stream, each honouring If-Match (412 when the note changed since it was read).
 */
import { restoreNote, trashNote, updateNote } from '../../actions/index.js';
import { NoteIdParam, Note, NoteBody } from '../schemas.js';
import {
  commandContext,
  defineNotesOp,
  type NotesHttpDeps,
  type NotesOperation,
} from '../types.js';
import { noteAnswer, noteWrite } from './shared.js';

export function noteEditOperations(deps: NotesHttpDeps): NotesOperation[] {
  const updateNoteOp = defineNotesOp({
    id: 'update_note',
    versioned: true,
    method: 'put',
    path: '/v1/notes/{id}',
    summary: 'Replace a note (the replaced version is archived first)',
    tags: ['Notes'],
    params: NoteIdParam,
    body: NoteBody,
    response: Note,
    errors: [400, 401, 403, 404, 409, 412],
    auth: 'bearer',
    extraDescription:
      'title, content and metadata are replaced as a whole (absent title = "", absent metadata = none); tags, when sent, replace the whole tag set, else they are kept. Send If-Match: "<revision>" to refuse a lost update (412). A note in the trash must be restored first (409).',
    async handler(ctx) {
      const context = commandContext(deps, ctx.principal, ctx);
      const { position, note: left } = await noteWrite(deps, ctx, (note) =>
        updateNote(deps, context, { ...note, ...ctx.body }),
      );
      return {
        position,
        readBack: () => noteAnswer(deps, ctx.principal.userId, ctx.params.id, left.revision),
      };
    },
  });

  const deleteNoteOp = defineNotesOp({
    id: 'delete_note',
    versioned: true,
    method: 'delete',
    path: '/v1/notes/{id}',
    summary: 'Move a note to the trash',
    tags: ['Notes'],
    params: NoteIdParam,
    successStatus: 204,
    responseDescription: 'Trashed; no body',
    errors: [401, 403, 404, 412],
    auth: 'bearer',
    extraDescription:
      'Soft delete: the note keeps its history and can be restored (restore_note: POST /v1/notes/{id}/restore). Trashing a trashed note changes nothing. Honours If-Match.',
    async handler(ctx) {
      const context = commandContext(deps, ctx.principal, ctx);
      const { position } = await noteWrite(deps, ctx, (note) => trashNote(deps, context, note));
      return { position };
    },
  });

  const restoreNoteOp = defineNotesOp({
    id: 'restore_note',
    versioned: true,
    method: 'post',
    idempotent: true,
    path: '/v1/notes/{id}/restore',
    summary: 'Restore a note from the trash',
    tags: ['Notes'],
    params: NoteIdParam,
    response: Note,
    errors: [401, 403, 404, 412],
    auth: 'bearer',
    extraDescription:
      'Takes the note out of the trash. Restoring an active note changes nothing. Honours If-Match. The note is searchable again shortly after.',
    async handler(ctx) {
      const context = commandContext(deps, ctx.principal, ctx);
      const { position, note: left } = await noteWrite(deps, ctx, (note) =>
        restoreNote(deps, context, note),
      );
      return {
        position,
        readBack: () => noteAnswer(deps, ctx.principal.userId, ctx.params.id, left.revision),
      };
    },
  });

  return [updateNoteOp, deleteNoteOp, restoreNoteOp];
}
