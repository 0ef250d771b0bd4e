/**
 * A refresh token's or code's use on MongoDB, where two requests (in one API process or two) can
 * present the same token at the same moment. Each reads it unused and saves its successor; the
 * mark follows that write (unsettled.ts). Written as a plain update, both marks landed and both
 * requests answered tokens: a stolen refresh token used beside the legitimate one went unnoticed.
 *
 * So the mark is a compare-and-set on the document as the request read it: only one request's
 * mark finds it unused. The other is the reuse, and does what oidc-provider does when it reads a
 * used token (lib/actions/grants/refresh_token.js, lib/helpers/grant_source.js, revoke.js): it
 * revokes the grant — the grant and its every token, the other request's successor and its own
 * included — and answers invalid_grant. A request that finds the token used or gone already when
 * it consumes is the reuse at once, before it writes anything.
 *
 * A server lost before the mark still leaves the token unused (the retry takes it); one lost
 * before the reuse's revocation leaves the grant to the next presentation of the used token,
 * which oidc-provider takes for reuse itself.
 */
import { errors } from 'oidc-provider';
import type { Collection } from '../../readstore/types.js';
import type { StoredArtifact } from './adapter.js';

/** models that hang off a grant and are revoked with it */
export const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
]);

export type Collections = (model: string) => Collection<StoredArtifact>;

/** the stored payload (JSON) marked used at `at` (seconds), as oidc-provider's consume() marks it */
export function withConsumed(payload: string, at: number): string {
  return JSON.stringify({ ...JSON.parse(payload), consumed: at });
}

/** oidc-provider's own words for a used token or code (its InvalidGrant details) */
const USED: Record<string, string> = {
  RefreshToken: 'refresh token already used',
  AuthorizationCode: 'authorization code already consumed',
};

/**
 * The use of `read` (the document of `model` as the consuming request found it) on MongoDB: the
 * mark to write after the request's write. Rejects at once when `read` is used or gone already.
 */
export async function markOnce(
  collection: Collections,
  model: string,
  read: StoredArtifact | null,
  at: number,
): Promise<() => Promise<void>> {
  if (!read || JSON.parse(read.payload).consumed) return reused(collection, model, read?.grantId);
  const unused = read.payload;
  return async () => {
    const { matchedCount } = await collection(model).updateOne(
      { _id: read._id, payload: unused },
      { $set: { payload: withConsumed(unused, at) } },
    );
    if (matchedCount === 0) await reused(collection, model, read.grantId);
  };
}

/**
 * Revokes the grant of a token presented twice and refuses the request. A token gone names no
 * grant: it went with its grant (a reuse, a disconnect, RFC 7009's revocation).
 */
async function reused(collection: Collections, model: string, grantId?: string): Promise<never> {
  if (grantId) {
    // the grant first: without it no token of it is honoured (validateGrant, verifyAccessToken)
    await collection('Grant').deleteOne({ _id: grantId });
    for (const grantable of GRANTABLE) await collection(grantable).deleteMany({ grantId });
  }
  throw new errors.InvalidGrant(USED[model] ?? `${model} already consumed`);
}
