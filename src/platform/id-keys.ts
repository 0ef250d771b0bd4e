/**
 * Ids derived from something a third party could guess (an e-mail address) must not let whoever
 * sees the id confirm a guess offline: they are an HMAC under a key only the deployment holds,
 * derived from the server secret every process of it shares (ServiceContext.secret) and a purpose
 * label, so one kind of id never reveals another's. Deterministic like the plain hash they
 * replace: the same input gives the same id on every process, which is how concurrent creates of
 * one account meet on one stream.
 */
import { createHash, createHmac } from 'node:crypto';

export type IdKey = (input: string) => string;

/** the hex HMAC-SHA-256 of an input under the key for `purpose` */
export function idKeyFor(secret: string, purpose: string): IdKey {
  const key = createHmac('sha256', secret).update(`derived-id-key\0${purpose}`).digest();
  return (input) => createHmac('sha256', key).update(input).digest('hex');
}

/** the unkeyed digest ids were derived with before: only to find data written then */
export const legacyDigest: IdKey = (input) => createHash('sha256').update(input).digest('hex');
