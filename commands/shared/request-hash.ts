/**
 * An Idempotency-Key's retry is the same request when it hashes as the first attempt did
 * (src/write/batch.ts `hashCommand`). What a hash covers changes between versions (ids derived
 * from more of the request, a request's own fields instead of the whole command), so hashes
 * carry their scheme: one written under another scheme — before an upgrade — is not compared
 * with a hash it cannot equal, and the retry is taken as the same request (the key is the
 * client's word for it). Change the scheme whenever the hashed inputs change.
 */
export const REQUEST_HASH_SCHEME = 'h3.';

/** Whether a retry hashing to `retry` is another request than the first one, hashed `first`. */
export function anotherRequest(
  first: string | null | undefined,
  retry: string | undefined,
): boolean {
  if (!first?.startsWith(REQUEST_HASH_SCHEME)) return false;
  return first !== retry;
}
