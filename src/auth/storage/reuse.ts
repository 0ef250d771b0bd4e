/**
 * A refresh token's or code's use when two requests present it at the same moment. Each reads it
 * unused, and each used to mark it used over the other's mark, so both answered tokens: a stolen
 * refresh token used beside the legitimate one went unnoticed. On MongoDB the two can be in two
 * API processes; on the embedded store in one, whenever something between oidc-provider's find
 * and its consume waits for the network (notes reads its accounts from the event store, KurrentDB
 * when EVENTSTORE_URL is set) or the two requests resume together.
 *
 * So the mark is a compare-and-set on the document as the request read it: only one request's
 * mark finds it unused. The other is the reuse, and does what oidc-provider does when it reads a
 * used token (lib/actions/grants/refresh_token.js, lib/helpers/grant_source.js, revoke.js): it
 * revokes the grant — the grant and its every token, the other request's successor and its own
 * included — and answers invalid_grant. A request that finds the token used or gone already when
 * it consumes is the reuse at once, before it writes anything.
 *
 * On MongoDB the mark follows the request's write (unsettled.ts): a server lost before the mark
 * still leaves the token unused (the retry takes it); one lost before the reuse's revocation
 * leaves the grant to the next presentation of the used token, which oidc-provider takes for
 * reuse itself. The embedded store marks at once, in memory, and takes the mark back when the
 * request's write fails.
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
function withConsumed(payload: string, at: number): string {
  return JSON.stringify({ ...JSON.parse(payload), consumed: at });
}

/** oidc-provider's own words for a used token or code (its InvalidGrant details) */
const USED: Record<string, string> = {
  RefreshToken: 'refresh token already used',
  AuthorizationCode: 'authorization code already consumed',
};

/** A use of a token: `mark` writes it, `undo` takes it back (only while it is as `mark` left it) */
export interface Use {
  mark: () => Promise<void>;
  undo: () => Promise<unknown>;
}

/**
 * The use of `read`, the document of `model` as the consuming request found it. Rejects at once,
 * revoking the grant, when `read` is used or gone already; `flush` stores a revocation.
 */
export async function useOnce(
  collection: Collections,
  model: string,
  read: StoredArtifact | null,
  at: number,
  flush: () => Promise<void>,
): Promise<Use> {
  if (!read || JSON.parse(read.payload).consumed)
    return reused(collection, model, read?.grantId, flush);
  const unused = read.payload;
  const consumed = withConsumed(unused, at);
  const swap = (from: string, to: string) =>
    collection(model).updateOne({ _id: read._id, payload: from }, { $set: { payload: to } });
  return {
    async mark() {
      const { matchedCount } = await swap(unused, consumed);
      if (matchedCount === 0) await reused(collection, model, read.grantId, flush);
    },
    // a reuse that destroyed the token or revoked its grant meanwhile stays
    undo: () => swap(consumed, unused),
  };
}

/**
 * Revokes the grant of a token presented twice, stores that, and refuses the request. A token
 * gone names no grant: it went with its grant (a reuse, a disconnect, RFC 7009's revocation).
 */
async function reused(
  collection: Collections,
  model: string,
  grantId: string | undefined,
  flush: () => Promise<void>,
): Promise<never> {
  if (grantId) {
    // the grant first: without it no token of it is honoured (validateGrant, verifyAccessToken)
    await collection('Grant').deleteOne({ _id: grantId });
    for (const grantable of GRANTABLE) await collection(grantable).deleteMany({ grantId });
    // on the embedded store, or a restart brings the grant back (on MongoDB: stored already)
    await flush();
  }
  throw new errors.InvalidGrant(USED[model] ?? `${model} already consumed`);
}
