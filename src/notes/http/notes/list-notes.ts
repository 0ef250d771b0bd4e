/**
 * list_notes: keyset pages, most recently updated first. The read model's own page token is
 * wrapped in a signed cursor bound to the caller and the listing (active or with the trash), so an
 * edited token, or one from another listing, is a 400.
 */
import { z } from 'zod';
import { noteListLimits } from '../../../../projections/notes/queries.js';
import { cursorParam, limitParam } from '../../../http/registry.js';
import { NoteList } from '../schemas.js';
import { defineNotesOp, type NotesHttpDeps, type NotesOperation } from '../types.js';

const pageTokenShape = z.object({ t: z.string().min(1) });

export function listNotesOperation(deps: NotesHttpDeps): NotesOperation {
  const { queries, presenter, cursors } = deps;
  const tokenScope = (userId: string, includeDeleted: boolean) =>
    `notes:${userId}:${includeDeleted ? 'all' : 'active'}`;

  return defineNotesOp({
    id: 'list_notes',
    method: 'get',
    path: '/v1/notes',
    summary: 'List notes, most recently updated first',
    tags: ['Notes'],
    query: z.object({
      limit: limitParam({ ...noteListLimits }),
      pageToken: cursorParam('nextPageToken of the previous page, unchanged'),
      includeDeleted: z
        .boolean()
        .default(false)
        .meta({ description: 'also list notes in the trash' }),
    }),
    response: NoteList,
    errors: [400, 401, 403],
    auth: 'bearer',
    extraDescription:
      'To page, pass nextPageToken back as pageToken with the same includeDeleted (limit may change) until it is null. Keyset pagination: every note left unchanged during a walk is returned exactly once. Page tokens are signed; an edited token, or one from the other listing (includeDeleted changed), is a 400.',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const scope = tokenScope(userId, ctx.query.includeDeleted);
      const inner = ctx.query.pageToken
        ? cursors.decodeAs(ctx.query.pageToken, pageTokenShape, {
            scope,
            field: 'pageToken',
            issuedAs: 'nextPageToken',
          }).t
        : undefined;
      const page = await queries.listNotes(userId, {
        limit: ctx.query.limit,
        pageToken: inner,
        includeDeleted: ctx.query.includeDeleted,
      });
      return {
        body: {
          notes: await presenter.notes(userId, page.notes),
          nextPageToken: page.nextPageToken
            ? cursors.encode(
                { t: page.nextPageToken },
                { scope, field: 'pageToken', issuedAs: 'nextPageToken' },
              )
            : null,
        },
      };
    },
  });
}
