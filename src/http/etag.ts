/**
 * ETag / If-Match for lost-update protection (notes: `ETag` on reads, `If-Match` on PUT/DELETE).
 * Tags are strong (`"<version>"`): If-Match uses strong comparison (RFC 9110 §13.1.1), so a weak
 * tag could never match. A mismatch throws PreconditionFailed, which both envelopes answer 412.
 * A tag sent without its quotes (`5` for `"5"`, as people and assistants often write it) is read
 * as the quoted one: refusing it as "changed since it was read" sent clients into a loop of
 * reading again and sending the same unquoted value.
 */
import { PreconditionFailed } from './errors.js';

export type Version = number | bigint | string;

export function etagFor(version: Version): string {
  return `"${String(version)}"`;
}

function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0)
    .map((tag) => (tag === '*' || tag.startsWith('"') || tag.startsWith('W/') ? tag : `"${tag}"`));
}

/**
 * Passes when the header is absent, `*` (and the resource exists), or lists the current tag.
 * `current` undefined means the resource does not exist.
 */
export function assertIfMatch(
  ifMatch: string | undefined,
  current: Version | undefined,
  what = 'resource',
): void {
  if (ifMatch === undefined) return;
  const tags = tagsOf(ifMatch);
  if (current !== undefined) {
    if (tags.includes('*')) return;
    const tag = etagFor(current);
    if (tags.includes(tag)) return;
    throw new PreconditionFailed(
      `the ${what} has changed since it was read (If-Match ${ifMatch}, current ETag ${tag}); read it again`,
    );
  }
  throw new PreconditionFailed(`If-Match given but the ${what} does not exist`);
}

/**
 * The revision an `If-Match` names when it is exactly one strong integer tag, for passing to the
 * command handler as expected revision; undefined otherwise (absent, `*`, lists, other tags).
 */
export function expectedRevisionFrom(ifMatch: string | undefined): number | undefined {
  if (ifMatch === undefined) return undefined;
  const match = /^\s*(?:"(\d{1,15})"|(\d{1,15}))\s*$/.exec(ifMatch);
  return match ? Number(match[1] ?? match[2]) : undefined;
}

/**
 * RFC 9110 §13.1.2: a GET or HEAD whose `If-None-Match` lists the answer's tag (weak comparison:
 * `W/"5"` matches `"5"`), or is `*`, is answered 304 Not Modified without the body.
 */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  const tags = tagsOf(ifNoneMatch);
  return tags.includes('*') || tags.some((tag) => opaque(tag) === opaque(etag));
}
