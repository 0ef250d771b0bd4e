/**
 * Whether an If-Match is an If-Match at all (RFC 9110 §13.1.1: `If-Match = "*" / #entity-tag`,
 * §8.8.3: `entity-tag = [ W/ ] DQUOTE *etagc DQUOTE`). A value that lists no entity tag —
 * `garbage`, `W/x`, a tag with a character no entity tag holds — asks nothing a server can
 * evaluate: answering it 412 "changed since it was read" sent the client to read again and send
 * the same value, forever, while the resource had not changed. It is refused as the malformed
 * request it is, 400 (§15.5.1), before anything runs. The RFC has no rule for an invalid If-Match
 * (it has one for If-Modified-Since, §13.1.3: ignore it), and ignoring one would let through the
 * write the client meant to guard.
 *
 * As etag.ts reads it, a tag sent without its quotes (`5`, `5.<digest>`) is the quoted one, and
 * an empty list (``, `,`) lists no tag, which is well formed and answered 412 (etag.ts).
 */
import { InvalidArgument } from '../../commands/shared/errors.js';
import { shownTags } from './etag.js';

/** `"…"` with etagc inside (%x21 / %x23-7E / obs-text), optionally weak */
const ENTITY_TAG = '(?:W/)?"[\\x21\\x23-\\x7e\\x80-\\xff]*"';
/** a revision without its quotes, digest or none: what etag.ts reads as the quoted tag */
const UNQUOTED = '\\d+(?:\\.[A-Za-z0-9_-]+)?';
const ELEMENT = `(?:\\*|${ENTITY_TAG}|${UNQUOTED})`;
/** a list whose elements may be empty (RFC 9110 §5.6.1: a recipient accepts empty elements) */
const LIST = new RegExp(`^[ \\t]*(?:${ELEMENT})?[ \\t]*(?:,[ \\t]*(?:${ELEMENT})?[ \\t]*)*$`);

/**
 * The 400 for an If-Match that lists no entity tag; undefined when absent or well formed.
 * `carriesETag`: the target answers one (a `versioned` operation), so the client has one to send.
 */
export function malformedIfMatch(
  ifMatch: string | undefined,
  carriesETag: boolean,
): InvalidArgument | undefined {
  if (ifMatch === undefined || LIST.test(ifMatch)) return undefined;
  const instead = carriesETag
    ? 'send the ETag as read, or no If-Match'
    : 'this resource carries no ETag: send the request without If-Match';
  return new InvalidArgument(
    `If-Match ${shownTags(ifMatch)} holds no entity tag (RFC 9110 §8.8.3: each in double quotes, "3" or W/"3", comma-separated, or the field is *); ${instead}`,
  );
}
