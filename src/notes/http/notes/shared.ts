/** What the note operations share: the note as answered, and the note a write addresses. */
import { expectedRevision, resourceAnswer } from '../resource.js';
import type { NotesHttpDeps, NotesPrincipal } from '../types.js';

/**
 * The note with its tags and device by name, and its ETag. A write's answer is the note as that
 * write left it (`revision`): under concurrent writes the current note may already be a later
 * one, whose body and ETag are not what this request saved (RFC 9110 §8.8.3: a validator in the
 * answer must reflect the representation the request created).
 */
export async function noteAnswer(
  deps: NotesHttpDeps,
  userId: string,
  noteId: string,
  revision?: number,
) {
  const current = await deps.queries.getNote(userId, noteId);
  const note =
    revision === undefined || revision === current.revision
      ? current
      : await deps.queries.noteAt(userId, noteId, revision);
  return resourceAnswer(await deps.presenter.note(userId, note), note.revision);
}

/** The caller's note at `{id}`, with the revision its If-Match asks for. */
export async function noteRef(
  deps: NotesHttpDeps,
  ctx: { principal: NotesPrincipal; params: { id: string }; ifMatch: string | undefined },
) {
  const { userId } = ctx.principal;
  const noteId = ctx.params.id;
  const current = async () => (await deps.queries.getNote(userId, noteId)).revision;
  return { userId, noteId, expectedRevision: await expectedRevision(ctx.ifMatch, current, 'note') };
}
