/** What the note operations share: the note as answered, and the note a write addresses. */
import { answerAt, etagOf, precondition } from '../resource.js';
import type { NotesHttpDeps, NotesPrincipal } from '../types.js';

/** The note with its tags and device by name, and its ETag; a write's answer at its `revision`. */
export async function noteAnswer(
  deps: NotesHttpDeps,
  userId: string,
  noteId: string,
  revision?: number,
) {
  return answerAt(
    await deps.queries.getNote(userId, noteId),
    revision,
    (at) => deps.queries.noteAt(userId, noteId, at),
    (note) => deps.presenter.note(userId, note),
  );
}

/** The caller's note at `{id}`, with what its If-Match asks for (resource.ts precondition). */
export async function noteRef(
  deps: NotesHttpDeps,
  ctx: { principal: NotesPrincipal; params: { id: string }; ifMatch: string | undefined },
) {
  const { userId } = ctx.principal;
  const noteId = ctx.params.id;
  const current = async () => (await deps.queries.getNote(userId, noteId)).revision;
  const etag = () => etagOf(noteAnswer(deps, userId, noteId));
  return { userId, noteId, ...(await precondition(ctx.ifMatch, current, 'note', etag)) };
}
