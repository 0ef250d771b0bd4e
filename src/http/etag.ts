/**
 * ETag / If-Match for lost-update protection (notes: `ETag` on reads, `If-Match` on PUT/DELETE).
 * Tags are strong (`"<version>"`): If-Match uses strong comparison (RFC 9110 §13.1.1), so a weak
 * tag could never match. A mismatch throws PreconditionFailed, which both envelopes answer 412.
 * A tag sent without its quotes (`5` for `"5"`, as people and assistants often write it) is read
 * as the quoted one: refusing it as "changed since it was read" sent clients into a loop of
 * reading again and sending the same unquoted value.
 *
 * An answer that embeds other records (a note shows its tags' names and colours and its
 * device's name) changes when those do, without a new version of its own: its tag carries a
 * digest of the answer too (`"<version>.<digest>"`), so a conditional GET is not answered 304
 * with a stale view (RFC 9110 §8.8.1; DX audit). If-Match compares the version part only: it
 * guards the resource's own content, which another record's rename does not make stale.
 *
 * The version part is compared as text, never as a number (RFC 9110 §8.8.3.2: strong tags match
 * "character-by-character"): `"03"` is not the `"3"` this module writes, so it matches nothing and
 * is refused like any other tag that does not match.
 */
import { createHash } from 'node:crypto';
import { PreconditionFailed } from './errors.js';

export type Version = number | bigint | string;

/** base64url characters of the digest part: 64 bits of SHA-256 */
const DIGEST_CHARS = 11;
/** the optional digest part of a tag */
const DIGEST = `(?:\\.[A-Za-z0-9_-]{${DIGEST_CHARS}})?`;
const VERSIONED = new RegExp(`^"(.*?)${DIGEST}"$`);
/** an integer version as `String(version)` writes it: no sign, no leading zero */
const REVISION = '(?:0|[1-9]\\d{0,14})';
/** one strong tag naming an integer version, quoted or not (see expectedRevisionFrom) */
const ONE_REVISION = new RegExp(`^\\s*(?:"(${REVISION})${DIGEST}"|(${REVISION})${DIGEST})\\s*$`);
const ONLY_REVISION = new RegExp(`^${REVISION}$`);

/** `"<version>"`, or `"<version>.<digest>"` of the JSON text answered with it */
export function etagFor(version: Version, json?: string): string {
  if (json === undefined) return `"${String(version)}"`;
  const digest = createHash('sha256').update(json).digest('base64url').slice(0, DIGEST_CHARS);
  return `"${String(version)}.${digest}"`;
}

/** the version a strong tag names, with or without its digest; undefined for a weak tag */
function versionOf(tag: string): string | undefined {
  if (tag.startsWith('W/')) return undefined;
  return VERSIONED.exec(tag)?.[1];
}

function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0)
    .map((tag) => (tag === '*' || tag.startsWith('"') || tag.startsWith('W/') ? tag : `"${tag}"`));
}

/** Whether an If-Match lets a write through: `*` on an existing resource, or a tag naming `current`. */
export function ifMatchHolds(ifMatch: string, current: Version | undefined): boolean {
  if (current === undefined) return false;
  const tags = tagsOf(ifMatch);
  return tags.includes('*') || tags.some((given) => versionOf(given) === String(current));
}

/**
 * Whether an If-Match holds for an answer that carries `etag` (a read): `*`, or a strong tag whose
 * version part is the answer's (strong comparison, RFC 9110 §8.8.3.2: a weak tag never matches).
 */
export function ifMatchHoldsFor(ifMatch: string, etag: string): boolean {
  const current = versionOf(etag);
  const tags = tagsOf(ifMatch);
  if (tags.includes('*')) return true;
  return current !== undefined && tags.some((given) => versionOf(given) === current);
}

/**
 * The refusal of an If-Match that does not hold: the one message of every 412 for a resource
 * that carries an ETag (a read's, the handler's own check, a command that found a later revision). `etag` is the current ETag exactly as a read of
 * the resource sends it — with its digest where the answer carries one — so the client can see
 * it is not the one it holds; undefined when the resource does not exist. "Changed since it was
 * read" only when a tag names a revision the resource has left behind; a value that lists no
 * entity tag at all never gets here (if-match-syntax.ts: 400).
 */
export function ifMatchRefused(
  ifMatch: string,
  what: string,
  etag: string | undefined,
): PreconditionFailed {
  if (etag === undefined) {
    return new PreconditionFailed(`If-Match given but the ${what} does not exist`);
  }
  const tags = tagsOf(ifMatch);
  if (tags.length === 0) {
    // an empty header (or commas only) lists no tag at all: it is not "weak tags", and reading
    // again would not help either
    return new PreconditionFailed(
      `If-Match is empty, so no tag can match (RFC 9110 §13.1.1); send the ETag as read, or no If-Match, current ETag ${etag}`,
    );
  }
  if (tags.every((tag) => tag.startsWith('W/'))) {
    // reading again would give the same answer: the tag, not the resource, is the problem
    return new PreconditionFailed(
      `If-Match ${shownTags(ifMatch)} names only weak tags, which never match (RFC 9110 §13.1.1 compares strongly); send the ETag as read, current ETag ${etag}`,
    );
  }
  if (namesEarlierRevision(tags, etag)) {
    return new PreconditionFailed(
      `the ${what} has changed since it was read (If-Match ${shownTags(ifMatch)}, current ETag ${etag}); read it again`,
    );
  }
  // `"draft"`, `"00"`, a revision the resource never reached: it did not change, the tag is wrong
  return new PreconditionFailed(
    `If-Match ${shownTags(ifMatch)} holds no entity tag of this ${what}, which is at revision ${versionOf(etag)} (current ETag ${etag}); send the ETag as read`,
  );
}

/**
 * Whether a strong tag names a revision before the current one: the resource has changed since
 * that tag was read. Any other refused tag (not a revision as etagFor writes it, or one not
 * reached yet) was never an ETag of it, and "changed since it was read" would send the client to
 * read again and send the same tag. A current version that is no integer counts as changed.
 */
function namesEarlierRevision(tags: string[], etag: string): boolean {
  const current = versionOf(etag);
  if (current === undefined || !ONLY_REVISION.test(current)) return true;
  return tags
    .map(versionOf)
    .some((v) => v !== undefined && ONLY_REVISION.test(v) && Number(v) < Number(current));
}

/** how much of a refused If-Match a message repeats: enough to recognise, not a whole header */
const SHOWN_IF_MATCH = 64;

/**
 * A refused If-Match or If-None-Match as a message repeats it, cut to a readable length by code
 * points: an MCP `_meta.ifMatch` may hold any text, and half an emoji is not JSON-safe.
 */
export function shownTags(header: string): string {
  const chars = Array.from(header.trim());
  return chars.length > SHOWN_IF_MATCH
    ? `${chars.slice(0, SHOWN_IF_MATCH).join('')}…`
    : chars.join('');
}

/**
 * For a resource that carries no ETag (an operation not `versioned`): RFC 9110 §13.1.1 says an
 * If-Match holds when "any of the listed tags match the entity tag of the selected
 * representation", and such a representation has none, so only `*` can hold (and the handler
 * answers 404 when the resource is missing, which takes precedence, §13.2.1). Undefined when the
 * header is absent or `*`; otherwise the refusal, naming what was sent (cut to a readable length).
 */
export function ifMatchWithoutETag(ifMatch: string | undefined): PreconditionFailed | undefined {
  if (ifMatch === undefined) return undefined;
  const tags = tagsOf(ifMatch);
  if (tags.includes('*')) return undefined;
  if (tags.length === 0) {
    return new PreconditionFailed(
      'this resource carries no ETag and If-Match is empty, so it cannot match (RFC 9110 §13.1.1); send the request without If-Match',
    );
  }
  return new PreconditionFailed(
    `this resource carries no ETag, so If-Match ${shownTags(ifMatch)} cannot match (RFC 9110 §13.1.1); send the request without If-Match`,
  );
}

/**
 * For a write whose target carries no ETag (an operation not `versioned`, or a create, whose
 * target is the collection it adds to): RFC 9110 §13.1.2, `*` "is false if the origin server has a
 * current representation for the target resource" — and it has, once the handler found it (a
 * missing one answers 404 first, §13.2.1; a collection always exists) — while a listed tag can
 * match no ETag, so a list holds. Undefined when the header is absent or holds; otherwise the 412.
 */
export function ifNoneMatchWithoutETag(
  ifNoneMatch: string | undefined,
): PreconditionFailed | undefined {
  if (ifNoneMatch === undefined || !tagsOf(ifNoneMatch).includes('*')) return undefined;
  return new PreconditionFailed(
    `this resource exists, so If-None-Match ${shownTags(ifNoneMatch)} cannot hold (RFC 9110 §13.1.2; the resource of a create is the collection it adds to); send the request without If-None-Match`,
  );
}

/**
 * Passes when the header is absent, `*` (and the resource exists), or lists the current tag, for
 * a resource whose ETag is `etagFor(current)` (no digest: see ifMatchRefused otherwise).
 * `current` undefined means the resource does not exist.
 */
export function assertIfMatch(
  ifMatch: string | undefined,
  current: Version | undefined,
  what = 'resource',
): void {
  if (ifMatch === undefined || ifMatchHolds(ifMatch, current)) return;
  throw ifMatchRefused(ifMatch, what, current === undefined ? undefined : etagFor(current));
}

/**
 * The revision an `If-Match` names when it is exactly one strong integer tag, for passing to the
 * command handler as expected revision; undefined otherwise (absent, `*`, lists, other tags).
 */
export function expectedRevisionFrom(ifMatch: string | undefined): number | undefined {
  if (ifMatch === undefined) return undefined;
  const match = ONE_REVISION.exec(ifMatch);
  return match ? Number(match[1] ?? match[2]) : undefined;
}

/** The integer revisions the strong tags of an If-Match name, in order (none for `*`). */
export function revisionsNamed(ifMatch: string): number[] {
  return tagsOf(ifMatch)
    .map(versionOf)
    .filter((version): version is string => version !== undefined && ONLY_REVISION.test(version))
    .map(Number);
}

/**
 * RFC 9110 §13.1.2: a GET or HEAD whose `If-None-Match` lists the answer's tag (weak comparison:
 * `W/"5"` matches `"5"`), or is `*`, is answered 304 Not Modified without the body. `*` "is false
 * if the origin server has a current representation for the target resource", ETag or none (an
 * answer without `etag`: only `*` can match); a missing one answered 404 before this is asked.
 */
export function notModified(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  const tags = tagsOf(ifNoneMatch);
  if (tags.includes('*')) return true;
  return etag !== undefined && tags.some((tag) => opaque(tag) === opaque(etag));
}
