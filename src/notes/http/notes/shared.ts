/** What the note operations share: the note as answered, and the note a write addresses. */
import { answerAt, etagOf, precondition, refusingStale } from '../resource.js';
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

type WriteContext = {
  principal: NotesPrincipal;
  params: { id: string };
  ifMatch: string | undefined;
  /** over HTTP: its If-None-Match is a precondition too */
  ifNoneMatch?: string;
};

/**
 * A write to the caller's note at `{id}`: `write` gets the note with what its If-Match asks for
 * (resource.ts precondition); a stale one is refused naming the current ETag (refusingStale).
 */
export async function noteWrite<T>(
  deps: NotesHttpDeps,
  ctx: WriteContext,
  write: (note: {
    userId: string;
    noteId: string;
    expectedRevision?: number;
    ifMatch?: string;
  }) => Promise<T>,
): Promise<T> {
  const { userId } = ctx.principal;
  const noteId = ctx.params.id;
  const current = async () => (await deps.queries.getNote(userId, noteId)).revision;
  const etag = () => etagOf(noteAnswer(deps, userId, noteId));
  const asked = await precondition(ctx, current, 'note', etag);
  return refusingStale(ctx.ifMatch, 'note', etag, () => write({ userId, noteId, ...asked }));
}
