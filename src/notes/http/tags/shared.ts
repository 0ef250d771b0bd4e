/** What the tag operations share: the tag as answered, and the tag a write addresses. */
import { presentTag } from '../present.js';
import { answerAt, etagOf, precondition } from '../resource.js';
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

/** The caller's tag at `{id}`, with what its If-Match asks for (resource.ts precondition). */
export async function tagRef(
  deps: NotesHttpDeps,
  ctx: { principal: NotesPrincipal; params: { id: string }; ifMatch: string | undefined },
) {
  const { userId } = ctx.principal;
  const tagId = ctx.params.id;
  const current = async () => (await deps.queries.getTag(userId, tagId)).revision;
  const etag = () => etagOf(tagAnswer(deps, userId, tagId));
  return { userId, tagId, ...(await precondition(ctx.ifMatch, current, 'tag', etag)) };
}
