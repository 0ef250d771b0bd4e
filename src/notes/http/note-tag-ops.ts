/** A note's tags one at a time, and search by meaning. */
import { z } from 'zod';
import { etagFor, limitParam } from '../../http/registry.js';
import {
  commandContext,
  defineNotesOp,
  expectedRevision,
  type NotesHttpDeps,
  settle,
} from './context.js';
import { Note, NoteSearchResults, NoteTagParams } from './schemas.js';

export const searchLimits = { min: 1, max: 20, default: 10 } as const;
export const searchQueryMax = 500;

export function noteTagOperations(deps: NotesHttpDeps) {
  const { actions, queries, presenter } = deps;
  const currentRevision = (userId: string, noteId: string) => async () =>
    (await queries.getNote(userId, noteId)).revision;

  const addNoteTag = defineNotesOp({
    id: 'add_note_tag',
    method: 'post',
    path: '/v1/notes/{id}/tags/{tagId}',
    summary: 'Add an existing tag to a note',
    tags: ['Notes'],
    params: NoteTagParams,
    response: Note,
    errors: [401, 403, 404, 409, 412],
    auth: 'bearer',
    extraDescription:
      'The tag must be one of your active tags (404 otherwise). Adding a tag the note has changes nothing. Honours If-Match.',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const { id: noteId, tagId } = ctx.params;
      const expected = await expectedRevision(ctx.ifMatch, currentRevision(userId, noteId), 'note');
      const result = await actions.addTagToNote(
        { userId, noteId, tagId, expectedRevision: expected },
        commandContext(deps, ctx),
      );
      await settle(deps, result.position);
      const note = await queries.getNote(userId, noteId);
      return {
        body: await presenter.note(userId, note),
        headers: { ETag: etagFor(note.revision) },
      };
    },
  });

  const removeNoteTag = defineNotesOp({
    id: 'remove_note_tag',
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
      const { userId } = ctx.principal;
      const { id: noteId, tagId } = ctx.params;
      const expected = await expectedRevision(ctx.ifMatch, currentRevision(userId, noteId), 'note');
      const result = await actions.removeTagFromNote(
        { userId, noteId, tagId, expectedRevision: expected },
        commandContext(deps, ctx),
      );
      return { position: result.position };
    },
  });

  const searchNotes = defineNotesOp({
    id: 'search_notes',
    method: 'get',
    path: '/v1/notes/search',
    summary: 'Search your active notes by meaning',
    tags: ['Notes'],
    query: z.object({
      q: z
        .string()
        .trim()
        .min(1)
        .max(searchQueryMax)
        .meta({ description: `what you are looking for, 1 to ${searchQueryMax} characters` }),
      limit: limitParam({ ...searchLimits }),
    }),
    response: NoteSearchResults,
    errors: [400, 401, 403],
    auth: 'bearer',
    extraDescription:
      'Semantic search over title and content (not substring matching), best first. Weak matches are dropped, so a query about nothing in your notes returns an empty list. Trashed notes are never returned. A new or edited note is searchable within about a second (it is embedded in the background).',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const hits = await deps.search.search(userId, ctx.query.q, ctx.query.limit);
      const notes = await queries.getNotes(
        userId,
        hits.map((h) => h.noteId),
      );
      const active = new Map(notes.filter((n) => n.deletedAt === null).map((n) => [n.id, n]));
      const kept = hits.filter((h) => active.has(h.noteId));
      const presented = await presenter.notes(
        userId,
        kept.map((h) => active.get(h.noteId)!),
      );
      return {
        body: {
          results: kept.map((hit, i) => ({
            note: presented[i]!,
            score: Math.round(hit.score * 1e4) / 1e4,
          })),
        },
      };
    },
  });

  return [addNoteTag, removeNoteTag, searchNotes];
}
