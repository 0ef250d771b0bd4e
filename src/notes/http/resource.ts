/**
 * What the note, tag and device operations share: a resource answers with its revision (and a
 * digest of the answer) as ETag,
 * a create answers 201 with its Location, and a write honours If-Match.
 */
import { assertIfMatch, etagFor, expectedRevisionFrom, RawJson } from '../../http/registry.js';

export interface ResourceAnswer<Body> {
  status: number;
  body: RawJson<Body>;
  headers: Record<string, string>;
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
 * The expected revision an If-Match asks for. A single strong integer tag (what our ETags are)
 * goes to the command as its expected revision, so the check and the append are one atomic
 * step; `*` or a list is checked against the current revision (412 when none matches), then
 * that revision is expected, so a writer slipping in between still loses.
 */
export async function expectedRevision(
  ifMatch: string | undefined,
  current: () => Promise<number | undefined>,
  what: string,
): Promise<number | undefined> {
  if (ifMatch === undefined) return undefined;
  const exact = expectedRevisionFrom(ifMatch);
  if (exact !== undefined) return exact;
  const revision = await current();
  assertIfMatch(ifMatch, revision, what);
  return revision;
}
