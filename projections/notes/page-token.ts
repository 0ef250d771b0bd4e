/**
 * Keyset page tokens for the note list: the (updatedAt, id) of the last note returned, encoded
 * as base64url JSON. They are opaque to clients and carry no secret (they only say where a
 * walk of the caller's own notes stopped); a token that does not decode to that shape is
 * rejected as invalid input rather than silently restarting the walk.
 */
import { InvalidArgument } from '../../commands/shared/errors.js';

export interface NotesKey {
  updatedAt: number;
  id: string;
}

export function encodePageToken(key: NotesKey): string {
  return Buffer.from(JSON.stringify({ u: key.updatedAt, i: key.id })).toString('base64url');
}

export function decodePageToken(token: string): NotesKey {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (parsed && typeof parsed === 'object') {
      const { u, i } = parsed as { u?: unknown; i?: unknown };
      if (
        typeof u === 'number' &&
        Number.isSafeInteger(u) &&
        typeof i === 'string' &&
        i.length > 0
      ) {
        return { updatedAt: u, id: i };
      }
    }
  } catch {
    // fall through: not base64url JSON
  }
  throw new InvalidArgument('pageToken is not valid');
}
