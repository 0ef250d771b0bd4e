/**
 * `If-None-Match` as RFC 9110 §13.1.2 evaluates it for a GET: `*` matches any current
 * representation; otherwise the field is a list of entity tags, and one that matches the current
 * tag by weak comparison (the opaque part, whether either side is `W/`) makes the answer a 304.
 */
const ENTITY_TAG = /(?:W\/)?"([^"]*)"/g;

const opaqueOf = (tag: string): string => tag.replace(/^W\//, '');

/**
 * true when the request already holds the representation tagged `etag` (answer 304); a page
 * answered without a tag (`etag` undefined) is held only by `*`
 */
export function holdsCurrent(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  if (etag === undefined) return false;
  const current = opaqueOf(etag);
  for (const [tag] of ifNoneMatch.matchAll(ENTITY_TAG)) {
    if (opaqueOf(tag) === current) return true;
  }
  return false;
}
