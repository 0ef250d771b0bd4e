/** create_note: unknown tag names and the device name are created with the note. */
import { createNote } from '../../actions/index.js';
import { created } from '../resource.js';
import { Note, NoteBody } from '../schemas.js';
import {
  commandContext,
  defineNotesOp,
  type NotesHttpDeps,
  type NotesOperation,
} from '../types.js';
import { noteAnswer } from './shared.js';

export function createNoteOperation(deps: NotesHttpDeps): NotesOperation {
  return defineNotesOp({
    id: 'create_note',
    versioned: true,
    createsInCollection: true,
    method: 'post',
    path: '/v1/notes',
    summary: 'Create a note',
    tags: ['Notes'],
    body: NoteBody,
    response: Note,
    successStatus: 201,
    errors: [400, 401, 403, 409, 412, 413, 415],
    auth: 'bearer',
    extraDescription:
      'Tag names without a tag are created; a device name without a device is registered (platform "unknown"). With latitude and longitude the note gets a place name. An Idempotency-Key makes a retry return the first result.',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const { note, position } = await createNote(deps, commandContext(deps, ctx.principal, ctx), {
        userId,
        ...ctx.body,
      });
      return {
        position,
        readBack: async () =>
          created(await noteAnswer(deps, userId, note.id, note.revision), `/v1/notes/${note.id}`),
      };
    },
  });
}
