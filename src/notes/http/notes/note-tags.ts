/** add_note_tag and remove_note_tag: a note's tags one at a time, honouring If-Match. */
import { addTagToNote, removeTagFromNote } from '../../actions/index.js';
import { Note, NoteTagParams } from '../schemas.js';
import {
  commandContext,
  defineNotesOp,
  type NotesHttpDeps,
  type NotesOperation,
} from '../types.js';
import { noteAnswer, noteWrite } from './shared.js';

export function noteTagOperations(deps: NotesHttpDeps): NotesOperation[] {
  const addNoteTag = defineNotesOp({
    id: 'add_note_tag',
    versioned: true,
    method: 'post',
    idempotent: true,
    path: '/v1/notes/{id}/tags/{tagId}',
    summary: 'Add an existing tag to a note',
    tags: ['Notes'],
    params: NoteTagParams,
    response: Note,
    errors: [401, 403, 404, 409, 412],
    auth: 'bearer',
    extraDescription:
      'The tag must be one of your tags (404 otherwise) and not deleted (409). Adding a tag the note has changes nothing, even one deleted since it was added. Honours If-Match.',
    async handler(ctx) {
      const context = commandContext(deps, ctx.principal, ctx);
      const added = await noteWrite(deps, ctx, (note) =>
        addTagToNote(deps, context, { ...note, tagId: ctx.params.tagId }),
      );
      return {
        position: added.position,
        readBack: () => noteAnswer(deps, ctx.principal.userId, ctx.params.id, added.note.revision),
      };
    },
  });

  const removeNoteTag = defineNotesOp({
    id: 'remove_note_tag',
    versioned: true,
    method: 'delete',
    path: '/v1/notes/{id}/tags/{tagId}',
    summary: 'Remove a tag from a note',
    tags: ['Notes'],
    params: NoteTagParams,
    successStatus: 204,
    responseDescription: 'Removed (or was not on the note); no body',
    errors: [401, 403, 404, 409, 412],
    auth: 'bearer',
    extraDescription: 'Also removes a tag deleted since it was added. Honours If-Match.',
    async handler(ctx) {
      const context = commandContext(deps, ctx.principal, ctx);
      const tagId = ctx.params.tagId;
      const { position } = await noteWrite(deps, ctx, (note) =>
        removeTagFromNote(deps, context, { ...note, tagId }),
      );
      return { position };
    },
  });

  return [addNoteTag, removeNoteTag];
}
