/**
 * Verifies the service's own JWT access tokens in-process with jose against the provider's public
 * keys, then checks live state: the grant still exists (revoked on disconnect or on refresh-token
 * reuse) and the token was not revoked at /oauth/revoke.
 */
import {
  createLocalJWKSet,
  errors as joseErrors,
  type JSONWebKeySet,
  type JWK,
  jwtVerify,
} from 'jose';
import type { Collection, Doc } from '../readstore/types.js';
import type { Presentation } from './dpop.js';
import { Unauthenticated } from './errors.js';
import type { StoredArtifact } from './storage/adapter.js';

export interface VerifiedAccessToken {
  userId: string;
  clientId: string;
  clientName: string;
  scopes: string[];
  /**
   * every scope the user granted the client (the grant's, for any resource): a token may carry
   * fewer, since a refresh may narrow its scope (RFC 6749 §6); empty without a grant
   */
  grantScopes: string[];
  expiresAt: Date;
  /** DPoP-bound (RFC 9449): it was accepted with a valid proof */
  bound: boolean;
}

export interface RevokedJti extends Doc {
  expiresAt: number;
}

const PRIVATE_PARTS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'] as const;

export function publicJwks(keys: JWK[]): JSONWebKeySet {
  return {
    keys: keys.map((key) => {
      const copy: JWK = { ...key };
      for (const part of PRIVATE_PARTS) delete copy[part];
      return copy;
    }),
  };
}

export function createAccessTokenVerifier(deps: {
  issuers: string[];
  audiences: string[];
  jwks: JSONWebKeySet;
  grants: Collection<StoredArtifact>;
  revoked: Collection<RevokedJti>;
  clientName: (clientId: string) => Promise<string | null>;
  /** RFC 9449 proof check for tokens bound to a key (dpop.ts) */
  checkDpopProof: (
    token: string,
    jkt: string,
    request: { proof: string | undefined; method: string; url: string },
  ) => Promise<void>;
  now: () => number;
}) {
  const keySet = createLocalJWKSet(deps.jwks);

  async function checkBinding(token: string, jkt: unknown, presentation: Presentation) {
    if (presentation.scheme === 'revocation') return;
    if (typeof jkt === 'string') {
      if (presentation.scheme !== 'DPoP') {
        throw new Unauthenticated(
          'this access token is bound to a DPoP key: send "Authorization: DPoP <token>" with a DPoP proof',
          'invalid_token',
          'DPoP',
        );
      }
      await deps.checkDpopProof(token, jkt, presentation);
    } else if (presentation.scheme === 'DPoP') {
      throw new Unauthenticated(
        'the DPoP scheme is only for DPoP-bound access tokens',
        'invalid_token',
        'DPoP',
      );
    }
  }

  /** `presentation`: how the token came; a DPoP-bound one is refused unless as DPoP with its proof */
  return async function verifyAccessToken(
    token: string | undefined | null,
    presentation: Presentation = { scheme: 'Bearer' },
  ): Promise<VerifiedAccessToken> {
    if (!token) throw new Unauthenticated('missing access token', 'invalid_request');
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, keySet, {
        issuer: deps.issuers,
        audience: deps.audiences,
        typ: 'at+jwt',
        algorithms: ['ES256', 'RS256'],
        currentDate: new Date(deps.now()),
      }));
    } catch (err) {
      const expired = err instanceof joseErrors.JWTExpired;
      throw new Unauthenticated(expired ? 'access token expired' : 'invalid access token');
    }
    const { sub, client_id: clientId, grant_id: grantId, jti, exp, scope, cnf } = payload;
    if (typeof sub !== 'string' || typeof clientId !== 'string' || typeof exp !== 'number') {
      throw new Unauthenticated('invalid access token');
    }
    await checkBinding(token, (cnf as { jkt?: unknown } | undefined)?.jkt, presentation);
    let grantScopes: string[] = [];
    if (typeof grantId === 'string') {
      const grant = await deps.grants.findOne({ _id: grantId });
      if (!grant || (grant.expiresAt !== null && grant.expiresAt <= deps.now())) {
        throw new Unauthenticated('access token revoked');
      }
      grantScopes = scopesOfGrant(grant);
    }
    if (typeof jti === 'string' && (await deps.revoked.findOne({ _id: jti }))) {
      throw new Unauthenticated('access token revoked');
    }
    return {
      userId: sub,
      clientId,
      bound: typeof (cnf as { jkt?: unknown } | undefined)?.jkt === 'string',
      clientName: (await deps.clientName(clientId)) ?? clientId,
      scopes: typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [],
      grantScopes,
      expiresAt: new Date(exp * 1000),
    };
  };
}

/** The scopes a stored grant holds: its OpenID scope and each resource's. */
export function scopesOfGrant(grant: StoredArtifact): string[] {
  const payload = JSON.parse(grant.payload) as {
    openid?: { scope?: string };
    resources?: Record<string, string>;
  };
  const all = [
    ...(payload.openid?.scope?.split(' ') ?? []),
    ...Object.values(payload.resources ?? {}).flatMap((scope) => scope.split(' ')),
  ];
  return [...new Set(all.filter(Boolean))];
}
