/**
 * What the note, tag and device operations share: a resource answers with its revision (and a
 * digest of the answer) as ETag,
 * a create answers 201 with its Location, and a write honours If-Match.
 */
import { RevisionMismatch } from '../../../commands/shared/revision.js';
import {
  etagFor,
  expectedRevisionFrom,
  ifMatchHolds,
  ifMatchRefused,
  notModified,
  PreconditionFailed,
  RawJson,
  revisionsNamed,
  shownTags,
} from '../../http/registry.js';

export interface ResourceAnswer<Body> {
  status: number;
  body: RawJson<Body>;
  headers: Record<string, string> & { ETag: string };
}

/**
 * The ETag carries the revision and a digest of the answer: a note shows its tags' and device's
 * current names, which change without a new revision of the note (src/http/etag.ts). The answer
 * is serialized once, for both the digest and the body.
 */
export function resourceAnswer<Body>(body: Body, revision: number): ResourceAnswer<Body> {
  const json = JSON.stringify(body);
  return { status: 200, body: new RawJson<Body>(json), headers: { ETag: etagFor(revision, json) } };
}

/**
 * A write's answer is the resource as that write left it (`revision`): under concurrent writes,
 * or for a retry answered from its first attempt, the current one may be a later one, whose body
 * and ETag are not what this request saved (RFC 9110 §8.8.3: a validator in the answer must
 * reflect the representation the request created). Without a revision: the current one.
 */
export async function answerAt<View extends { revision: number }, Body>(
  current: View,
  revision: number | undefined,
  readAt: (revision: number) => Promise<View>,
  present: (view: View) => Body | Promise<Body>,
): Promise<ResourceAnswer<Body>> {
  const view =
    revision === undefined || revision === current.revision ? current : await readAt(revision);
  return resourceAnswer(await present(view), view.revision);
}

/** The answer to a create: 201, the stored resource and where it lives. */
export function created<Body>(
  answer: ResourceAnswer<Body>,
  location: string,
): ResourceAnswer<Body> {
  return { ...answer, status: 201, headers: { ...answer.headers, Location: location } };
}

/**
 * What an If-Match asks of a write. `expectedRevision` goes to the command, so the check and the
 * append are one atomic step: a single strong integer tag (what our ETags are) as it is; `*` or
 * a list resolved against the current revision — that one when it matches (a writer slipping in
 * between still loses), else a revision the list names, which the command refuses with 412 as
 * it refuses a stale single tag (and a retry with the same Idempotency-Key is answered from its
 * first attempt instead). Such an If-Match is also kept as sent (`ifMatch`): a retry is compared
 * with its first attempt by what the client sent, and the revision `*` resolves to is the one
 * the first attempt's own write made. An If-Match naming no revision is refused here with 412,
 * naming the ETag a read of the resource sends (`currentETag`, digest and all: a client comparing
 * it with the one it holds should not see a tag no read ever answered).
 */
export async function precondition(
  conditions: { ifMatch: string | undefined; ifNoneMatch?: string },
  current: () => Promise<number | undefined>,
  what: string,
  currentETag: () => Promise<string>,
): Promise<{ expectedRevision?: number; ifMatch?: string }> {
  const asked = await ifMatchAsks(conditions.ifMatch, current, what, currentETag);
  const { ifNoneMatch } = conditions;
  if (ifNoneMatch !== undefined) await refuseIfNoneMatch(ifNoneMatch, what, currentETag);
  return asked;
}

async function ifMatchAsks(
  ifMatch: string | undefined,
  current: () => Promise<number | undefined>,
  what: string,
  currentETag: () => Promise<string>,
): Promise<{ expectedRevision?: number; ifMatch?: string }> {
  if (ifMatch === undefined) return {};
  const exact = expectedRevisionFrom(ifMatch);
  if (exact !== undefined) return { expectedRevision: exact };
  const revision = await current();
  if (ifMatchHolds(ifMatch, revision)) return { expectedRevision: revision, ifMatch };
  const named = revisionsNamed(ifMatch)[0];
  if (revision !== undefined && named !== undefined) return { expectedRevision: named, ifMatch };
  throw ifMatchRefused(ifMatch, what, revision === undefined ? undefined : await currentETag());
}

/**
 * RFC 9110 §13.1.2: a write whose If-None-Match is `*` (the resource exists: a missing one has
 * answered 404 by now, §13.2.1) or lists the current ETag (weak comparison) "MUST NOT" be
 * performed: 412, before anything is written or created. Evaluated after If-Match (§13.2.2).
 * Checked against the current revision, not appended with it: revisions only grow, so a write
 * slipping in between can only make a listed tag stale, never current.
 */
async function refuseIfNoneMatch(
  ifNoneMatch: string,
  what: string,
  currentETag: () => Promise<string>,
): Promise<void> {
  const etag = await currentETag();
  if (!notModified(ifNoneMatch, etag)) return;
  throw new PreconditionFailed(
    `If-None-Match ${shownTags(ifNoneMatch)} holds for the ${what} (current ETag ${etag}), so it is not changed (RFC 9110 §13.1.2)`,
  );
}

/**
 * Runs a write given what its If-Match asked (precondition). When the command finds another
 * revision than the one expected — the If-Match was stale, or a writer came in between — its
 * RevisionMismatch is answered as every other 412 of a resource with an ETag: naming the current
 * ETag exactly as a read sends it (ifMatchRefused, one message for all of them).
 */
export async function refusingStale<T>(
  ifMatch: string | undefined,
  what: string,
  currentETag: () => Promise<string>,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof RevisionMismatch) || ifMatch === undefined) throw error;
    throw ifMatchRefused(ifMatch, what, await currentETag());
  }
}

/** The ETag of an answer (resourceAnswer always sets it). */
export async function etagOf(answer: Promise<ResourceAnswer<unknown>>): Promise<string> {
  return (await answer).headers.ETag;
}
