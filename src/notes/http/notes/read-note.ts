/** get_note and get_note_history: the note as it is, and the versions PUTs replaced. */
import { z } from 'zod';
import { cursorParam, limitParam } from '../../../http/registry.js';
import { NoteIdParam, Note, NoteHistory } from '../schemas.js';
import { defineNotesOp, type NotesHttpDeps, type NotesOperation } from '../types.js';
import { noteAnswer } from './shared.js';

export function getNoteOperation(deps: NotesHttpDeps): NotesOperation {
  return defineNotesOp({
    id: 'get_note',
    versioned: true,
    resource: 'note',
    method: 'get',
    path: '/v1/notes/{id}',
    summary: 'Read one note with its tags',
    tags: ['Notes'],
    params: NoteIdParam,
    response: Note,
    responseDescription: 'The note (also when trashed: deletedAt is set); ETag header = revision',
    errors: [401, 403, 404, 412],
    auth: 'bearer',
    handler: async (ctx) => noteAnswer(deps, ctx.principal.userId, ctx.params.id),
  });
}

/** Most versions one history page holds (a note PUT 300 times with 100 KB made a 30 MB answer). */
export const HISTORY_PAGE_MAX = 100;

const historyTokenShape = z.object({ r: z.number().int() });

export function noteHistoryOperation(deps: NotesHttpDeps): NotesOperation {
  const { cursors } = deps;
  return defineNotesOp({
    id: 'get_note_history',
    method: 'get',
    path: '/v1/notes/{id}/history',
    summary: 'Archived versions of a note, newest first',
    tags: ['Notes'],
    params: NoteIdParam,
    query: z.object({
      limit: limitParam({ max: HISTORY_PAGE_MAX, default: HISTORY_PAGE_MAX }),
      pageToken: cursorParam('nextPageToken of the previous page, unchanged'),
    }),
    response: NoteHistory,
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    extraDescription: `Every PUT archives the version it replaced; tag additions, removals, trash and restore do not. Read from the note’s own events. At most \`limit\` versions (default and most ${HISTORY_PAGE_MAX}) per answer; to read the older ones, pass \`nextPageToken\` back as \`pageToken\` until it is null.`,
    async handler(ctx) {
      const { userId } = ctx.principal;
      const scope = {
        scope: `history:${userId}:${ctx.params.id}`,
        field: 'pageToken',
        issuedAs: 'nextPageToken',
      };
      const token = ctx.query.pageToken;
      const before = token ? cursors.decodeAs(token, historyTokenShape, scope).r : Infinity;
      const all = await deps.queries.history(userId, ctx.params.id);
      const older = all.filter((version) => version.revision < before);
      const page = older.slice(0, ctx.query.limit);
      const last = page.at(-1);
      return {
        body: {
          versions: await deps.presenter.versions(userId, page),
          nextPageToken:
            last && older.length > page.length ? cursors.encode({ r: last.revision }, scope) : null,
        },
      };
    },
  });
}
