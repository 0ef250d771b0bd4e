/**
 * Notes: list, create, get, PUT, DELETE (to trash), restore, history. Reads carry the note's
 * ETag (`"<revision>"`); PUT, DELETE and restore honour If-Match (412 when the note changed).
 */
import { z } from 'zod';
import { noteListLimits } from '../../../projections/notes/queries.js';
import { cursorParam, etagFor, limitParam } from '../../http/registry.js';
import {
  commandContext,
  defineNotesOp,
  expectedRevision,
  type NotesHttpDeps,
  settle,
} from './context.js';
import { IdParam, Note, NoteBody, NoteHistory, NoteList } from './schemas.js';

const pageTokenShape = z.object({ t: z.string().min(1) });
const NOTE_ERRORS = [400, 401, 403, 404, 409, 412] as const;

/** `null` coordinates/device in a body mean "none", exactly like leaving them out. */
function noteInput(body: z.output<typeof NoteBody>) {
  const { metadata, ...rest } = body;
  if (!metadata) return rest;
  const { latitude, longitude, device } = metadata;
  return {
    ...rest,
    metadata: {
      ...(latitude != null ? { latitude } : {}),
      ...(longitude != null ? { longitude } : {}),
      ...(device != null ? { device } : {}),
    },
  };
}

export function noteOperations(deps: NotesHttpDeps) {
  const { actions, queries, presenter, cursors } = deps;
  const tokenScope = (userId: string, includeDeleted: boolean) =>
    `notes:${userId}:${includeDeleted ? 'all' : 'active'}`;

  async function noteAnswer(userId: string, noteId: string, status = 200) {
    const note = await queries.getNote(userId, noteId);
    return {
      status,
      body: await presenter.note(userId, note),
      headers: { ETag: etagFor(note.revision) },
    };
  }
  const currentRevision = (userId: string, noteId: string) => async () =>
    (await queries.getNote(userId, noteId)).revision;

  const listNotes = defineNotesOp({
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
      'Keyset pagination: every note left unchanged during a walk is returned exactly once. Page tokens are signed; an edited token, or one from another listing, is a 400.',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const scope = tokenScope(userId, ctx.query.includeDeleted);
      const inner = ctx.query.pageToken
        ? cursors.decodeAs(ctx.query.pageToken, pageTokenShape, { scope, field: 'pageToken' }).t
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
            ? cursors.encode({ t: page.nextPageToken }, { scope, field: 'pageToken' })
            : null,
        },
      };
    },
  });

  const createNote = defineNotesOp({
    id: 'create_note',
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
      const result = await actions.createNote(
        { userId, ...noteInput(ctx.body) },
        commandContext(deps, ctx),
      );
      await settle(deps, result.position);
      const answer = await noteAnswer(userId, result.note.id, 201);
      return {
        ...answer,
        headers: { ...answer.headers, Location: `/v1/notes/${result.note.id}` },
      };
    },
  });

  const getNote = defineNotesOp({
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
    handler: async (ctx) => noteAnswer(ctx.principal.userId, ctx.params.id),
  });

  const updateNote = defineNotesOp({
    id: 'update_note',
    method: 'put',
    path: '/v1/notes/{id}',
    summary: 'Replace a note (the replaced version is archived first)',
    tags: ['Notes'],
    params: IdParam,
    body: NoteBody,
    response: Note,
    errors: NOTE_ERRORS,
    auth: 'bearer',
    extraDescription:
      'title, content and metadata are replaced as a whole (absent title = "", absent metadata = none); tags, when sent, replace the whole tag set, else they are kept. Send If-Match: "<revision>" to refuse a lost update (412). A note in the trash must be restored first (409).',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const noteId = ctx.params.id;
      const expected = await expectedRevision(ctx.ifMatch, currentRevision(userId, noteId), 'note');
      const result = await actions.updateNote(
        { userId, noteId, expectedRevision: expected, ...noteInput(ctx.body) },
        commandContext(deps, ctx),
      );
      await settle(deps, result.position);
      return noteAnswer(userId, noteId);
    },
  });

  const deleteNote = defineNotesOp({
    id: 'delete_note',
    method: 'delete',
    path: '/v1/notes/{id}',
    summary: 'Move a note to the trash',
    tags: ['Notes'],
    params: IdParam,
    successStatus: 204,
    responseDescription: 'Trashed; no body',
    errors: [401, 403, 404, 412],
    auth: 'bearer',
    extraDescription:
      'Soft delete: the note keeps its history and can be restored (POST /v1/notes/{id}/restore). Trashing a trashed note changes nothing. Honours If-Match.',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const noteId = ctx.params.id;
      const expected = await expectedRevision(ctx.ifMatch, currentRevision(userId, noteId), 'note');
      const result = await actions.trashNote(
        { userId, noteId, expectedRevision: expected },
        commandContext(deps, ctx),
      );
      return { position: result.position };
    },
  });

  const restoreNote = defineNotesOp({
    id: 'restore_note',
    method: 'post',
    path: '/v1/notes/{id}/restore',
    summary: 'Restore a note from the trash',
    tags: ['Notes'],
    params: IdParam,
    response: Note,
    errors: [401, 403, 404, 412],
    auth: 'bearer',
    extraDescription:
      'Beyond the spec. Restoring an active note changes nothing. Honours If-Match. The note is searchable again shortly after.',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const noteId = ctx.params.id;
      const expected = await expectedRevision(ctx.ifMatch, currentRevision(userId, noteId), 'note');
      const result = await actions.restoreNote(
        { userId, noteId, expectedRevision: expected },
        commandContext(deps, ctx),
      );
      await settle(deps, result.position);
      return noteAnswer(userId, noteId);
    },
  });

  const noteHistory = defineNotesOp({
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
      const versions = await queries.history(userId, ctx.params.id);
      return { body: { versions: await presenter.versions(userId, versions) } };
    },
  });

  return [listNotes, createNote, getNote, updateNote, deleteNote, restoreNote, noteHistory];
}
