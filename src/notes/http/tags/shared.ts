/** What the tag operations share: the tag as answered, and the tag a write addresses. */
import { presentTag } from '../present.js';
import { answerAt, etagOf, precondition, refusingStale } from '../resource.js';
import type { NotesHttpDeps, NotesPrincipal } from '../types.js';

/** The tag (also when soft-deleted) and its ETag; a write's answer at its `revision`. */
export async function tagAnswer(
  deps: NotesHttpDeps,
  userId: string,
  tagId: string,
  revision?: number,
) {
  return answerAt(
    await deps.queries.getTag(userId, tagId),
    revision,
    (at) => deps.queries.tagAt(userId, tagId, at),
    presentTag,
  );
}

/**
 * A write to the caller's tag at `{id}`: `write` gets the tag with what its If-Match asks for
 * (resource.ts precondition); a stale one is refused naming the current ETag (refusingStale).
 */
export async function tagWrite<T>(
  deps: NotesHttpDeps,
  ctx: {
    principal: NotesPrincipal;
    params: { id: string };
    ifMatch: string | undefined;
    ifNoneMatch?: string;
  },
  write: (tag: {
    userId: string;
    tagId: string;
    expectedRevision?: number;
    ifMatch?: string;
  }) => Promise<T>,
): Promise<T> {
  const { userId } = ctx.principal;
  const tagId = ctx.params.id;
  const current = async () => (await deps.queries.getTag(userId, tagId)).revision;
  const etag = () => etagOf(tagAnswer(deps, userId, tagId));
  const asked = await precondition(ctx, current, 'tag', etag);
  return refusingStale(ctx.ifMatch, 'tag', etag, () => write({ userId, tagId, ...asked }));
}
