/**
 * How long a dynamically registered client is kept. Registration is open and unauthenticated, and
 * a client used to be stored with no expiry: every registration stayed in the store (in memory,
 * on the embedded one) for good, whether anyone ever used it or not (resource-growth audit).
 *
 * So a client is stored with an expiry, `unusedClientTtlMs` after its registration, and only what
 * the client must outlive keeps it longer (an expiry only ever moves up; clientHeld says which):
 *
 *  - an authorization in progress (a pushed request, then the Interaction of its sign-in and
 *    consent, one hour) keeps it until that ends, so a client registered a moment before its
 *    lifetime was up still completes the sign-in it started;
 *  - a grant (a person approved the client on the consent page: its "use") keeps it until 30 days
 *    after the grant ends (APPROVED_CLIENT_GRACE_MS), and so does each refresh token — each
 *    rotation slides the refresh token, its grant and its client along. A client somebody uses
 *    therefore outlives its every grant: neither the connected-apps list nor an access token ever
 *    names a client that is gone, and an app that comes back after its refresh token expired
 *    (90 days) is told `invalid_grant`, as before, and can sign the person in again under the
 *    registration it holds. Only an app unused for 120 days loses its registration.
 *
 * Approved clients are not kept for good: each consent stores one, and a person signed in can
 * consent as often as the authorization limit lets them. A revoked grant (a disconnect, a reused
 * refresh token) leaves the client's expiry where it was. An expired client reads as absent
 * (oidc-provider answers `invalid_client`, which the MCP SDK meets by registering again) and is
 * removed from the store a minute later by the sweep (client-sweep.ts).
 */
import { decodeJwt } from 'jose';
import type { AdapterPayload } from 'oidc-provider';
import type { Collection } from '../../readstore/types.js';
import type { StoredArtifact } from './adapter.js';

/** how long an approved client outlives its last grant */
export const APPROVED_CLIENT_GRACE_MS = 30 * 24 * 60 * 60 * 1000;

/** the stored clients (`<prefix>_Client`), the clock and the lifetime of an unused client */
export interface ClientLifetime {
  clients: Collection<StoredArtifact>;
  now: () => number;
  unusedClientTtlMs: number;
}

/**
 * The expiry of a client being stored: its lifetime as an unused client from now, or the later
 * one it has already (oidc-provider stores a client again only when its registration is updated,
 * which must not cut short a client in use).
 */
export async function clientExpiry(life: ClientLifetime, clientId: string): Promise<number> {
  const fresh = life.now() + life.unusedClientTtlMs;
  const held = (await life.clients.findOne({ _id: clientId }))?.expiresAt;
  return typeof held === 'number' && held > fresh ? held : fresh;
}

/**
 * The client an artifact of `model` expiring at `expiresAt` keeps alive, and until when; undefined
 * for every artifact the client need not outlive, so that storing it costs no write of the client:
 *
 *  - a Grant and a RefreshToken keep it 30 days past their end. A rotation slides the grant
 *    without storing it again (adapter.ts extendGrant), so the refresh token holds for both.
 *  - an Interaction keeps it until the sign-in step ends, held once, when oidc-provider creates it
 *    (lib/actions/authorization/interactions.js: no `result` yet). Every later save of it
 *    (interactionResult in lib/provider.js, resume.js, persist) passes `exp - epochTime()`: the
 *    same end, which would write the client again for nothing.
 *  - a PushedAuthorizationRequest (/oauth/par, a minute at most) is a sign-in about to start: it
 *    keeps the client until the authorization request that uses it starts the Interaction.
 *
 * Not an authorization code nor an access token: oidc-provider honours either only while its
 * grant lives (validateGrant in lib/helpers/grant_source.js before a code is exchanged,
 * loadAccessTokenGrant in lib/shared/access_token.js; our verifier, access-token.ts, likewise),
 * and that grant, stored before them, keeps the client 30 days past its end. (The services'
 * access tokens are JWTs, which oidc-provider does not even store: lib/models/formats/jwt.js
 * gives base_model.js save() no payload to upsert.) Not a Session: it names no client; its
 * authorizations name grants, which hold their clients.
 */
export function clientHeld(
  model: string,
  payload: AdapterPayload,
  expiresAt: number,
): { clientId: string; until: number } | undefined {
  const named = typeof payload.clientId === 'string' ? payload.clientId : undefined;
  switch (model) {
    case 'Grant':
    case 'RefreshToken':
      return named ? { clientId: named, until: expiresAt + APPROVED_CLIENT_GRACE_MS } : undefined;
    case 'PushedAuthorizationRequest': {
      const pusher = pushedBy(payload.request);
      return pusher ? { clientId: pusher, until: expiresAt } : undefined;
    }
    case 'Interaction': {
      if (payload.result !== undefined) return undefined;
      const asked = (payload.params as { client_id?: unknown } | undefined)?.client_id;
      return typeof asked === 'string' ? { clientId: asked, until: expiresAt } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The client that pushed a request. oidc-provider stores a pushed request as its request object
 * alone (lib/actions/authorization/pushed_authorization_requests.js), a JWT that names the client
 * in `client_id` (and, when the server made it of the pushed parameters, in `iss`); the stored
 * payload has no `clientId` of its own.
 */
function pushedBy(request: unknown): string | undefined {
  if (typeof request !== 'string') return undefined;
  try {
    const { client_id: clientId, iss } = decodeJwt(request);
    const named = clientId ?? iss;
    return typeof named === 'string' ? named : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps a live client at least until `expiresAt`. One conditional write: a client that has
 * expired already (or a static one, not stored) is left alone, never brought back.
 */
export async function keepClientUntil(
  life: ClientLifetime,
  clientId: string,
  expiresAt: number,
): Promise<void> {
  await life.clients.updateOne(
    { _id: clientId, expiresAt: { $gt: life.now() } },
    { $max: { expiresAt } },
  );
}

/**
 * Clients stored before they had an expiry get one, once, at start: as an approved client's
 * after their longest grant, and at least the lifetime of an unused client from now (so a sign-in under way when the
 * service was upgraded still completes). Without it every registration made before the upgrade
 * would stay in the store for good. Returns how many were dated; the caller stores them.
 */
export async function dateStoredClients(
  life: ClientLifetime,
  grants: Collection<StoredArtifact>,
): Promise<number> {
  const undated = await life.clients.find({ expiresAt: null });
  if (undated.length === 0) return 0;
  const longestGrant = new Map<string, number>();
  for (const grant of await grants.find({})) {
    // every grant is stored with an expiry (ttl.Grant); one without would keep its client for good
    const until = grant.expiresAt ?? Number.POSITIVE_INFINITY;
    if (grant.clientId && until > (longestGrant.get(grant.clientId) ?? 0))
      longestGrant.set(grant.clientId, until);
  }
  const atLeast = life.now() + life.unusedClientTtlMs;
  let dated = 0;
  for (const client of undated) {
    const grantUntil = longestGrant.get(client._id) ?? Number.NEGATIVE_INFINITY;
    if (grantUntil === Number.POSITIVE_INFINITY) continue;
    await life.clients.updateOne(
      { _id: client._id, expiresAt: null },
      { $set: { expiresAt: Math.max(atLeast, grantUntil + APPROVED_CLIENT_GRACE_MS) } },
    );
    dated++;
  }
  return dated;
}
