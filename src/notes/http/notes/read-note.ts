/** get_note and get_note_history: the note as it is, and the versions PUTs replaced. */
import { IdParam, Note, NoteHistory } from '../schemas.js';
import { defineNotesOp, type NotesHttpDeps, type NotesOperation } from '../types.js';
import { noteAnswer } from './shared.js';

export function getNoteOperation(deps: NotesHttpDeps): NotesOperation {
  return defineNotesOp({
    id: 'get_note',
    method: 'get',
    path: '/v1/notes/{id}',
    summary: 'Read one note with its tags',
    tags: ['Notes'],
    params: IdParam,
    response: Note,
    responseDescription: 'The note (also when trashed: deletedAt is set); ETag header = revision',
    errors: [401, 403, 404],
    auth: 'bearer',
    handler: async (ctx) => noteAnswer(deps, ctx.principal.userId, ctx.params.id),
  });
}

export function noteHistoryOperation(deps: NotesHttpDeps): NotesOperation {
  return defineNotesOp({
    id: 'get_note_history',
    method: 'get',
    path: '/v1/notes/{id}/history',
    summary: 'Archived versions of a note, newest first',
    tags: ['Notes'],
    params: IdParam,
    response: NoteHistory,
    errors: [401, 403, 404],
    auth: 'bearer',
    extraDescription:
      'Every PUT archives the version it replaced; tag additions, removals, trash and restore do not. Read from the note’s own events.',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const versions = await deps.queries.history(userId, ctx.params.id);
      return { body: { versions: await deps.presenter.versions(userId, versions) } };
    },
  });
}
