/**
 * Who is calling: the three credentials of spec "Authentication", told apart by shape.
 *
 *  - `rft_service_…`  personal API token: hashed and looked up live on every request, so a
 *                     revocation or an expiry applies to the very next one. via `pat:<name>`.
 *  - JWT, typ at+jwt  this service's OAuth access token (verifyAccessToken: signature, audience,
 *                     expiry, live grant). via `api:<client name>`, scopes from the token.
 *  - any other JWT    identity-provider ID token: this service's own first-party client out of the
 *                     box, plus TRUSTED_ID_TOKEN_ISSUERS. No via label. An ID token from another
 *                     issuer names its user by e-mail, so it maps to the maker account with that
 *                     address; without one the token identifies nobody here (401).
 *
 * Everything wrong is Unauthenticated (401 + WWW-Authenticate); nothing here is a 500.
 */
import type { IncomingMessage } from 'node:http';
import { decodeProtectedHeader } from 'jose';
import { isTokenUsable, tokenByHash } from '../../../projections/tokens/queries.js';
import { userByEmail, userById } from '../../../projections/users/queries.js';
import {
  type AuthorizationServer,
  type Presentation,
  type TrustedIssuer,
  Unauthenticated,
} from '../../auth/index.js';
import type { ReadStore } from '../../readstore/types.js';
import { hashToken, TOKEN_PREFIX } from '../actions/tokens.js';
import { PUBLIC_SCOPE } from './authorize.js';
import { integrationCaller, isIntegrationCredential } from './integration.js';
import type { Caller } from '../http/types.js';

export interface AuthenticateDeps {
  readStore: ReadStore;
  auth: Pick<AuthorizationServer, 'verifyAccessToken' | 'verifyIdToken' | 'ownIdTokenIssuers'>;
  /** configured upstream issuers (TRUSTED_ID_TOKEN_ISSUERS) */
  trustedIssuers: TrustedIssuer[];
  now(): number;
}

/** The bearer token of the request; a missing or non-Bearer Authorization header is a 401. */
export function bearerFrom(req: Pick<IncomingMessage, 'headers'>): string {
  const header = req.headers.authorization;
  if (!header) throw new Unauthenticated('missing bearer token', 'invalid_request');
  const match = /^Bearer[ ]+([\x21-\x7e]+)\s*$/i.exec(header);
  if (!match)
    throw new Unauthenticated('Authorization must be "Bearer <token>"', 'invalid_request');
  return match[1] as string;
}

/**
 * The credential of the request: `Bearer <token>`, or `DPoP <token>` for a DPoP-bound access
 * token (RFC 9449 §7.1). Anything else is a 401.
 */
export function credentialFrom(req: Pick<IncomingMessage, 'headers'>): {
  scheme: 'Bearer' | 'DPoP';
  token: string;
} {
  const header = req.headers.authorization;
  if (!header) throw new Unauthenticated('missing bearer token', 'invalid_request');
  const match = /^(Bearer|DPoP)[ ]+([\x21-\x7e]+)\s*$/i.exec(header);
  if (!match) {
    throw new Unauthenticated(
      'Authorization must be "Bearer <token>" or "DPoP <token>"',
      'invalid_request',
    );
  }
  const scheme = (match[1] as string).toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer';
  return { scheme, token: match[2] as string };
}

/** a revoked personal token's refusal: the read models' or a revocation they lack yet */
export const TOKEN_REVOKED = 'API token revoked';

export function createAuthenticator(deps: AuthenticateDeps) {
  const ownIssuers = new Set(deps.auth.ownIdTokenIssuers.map((t) => t.issuer));

  async function personalToken(token: string): Promise<Caller> {
    const doc = await tokenByHash(deps.readStore, hashToken(token));
    if (!doc) throw new Unauthenticated('unknown API token');
    if (!isTokenUsable(doc, deps.now())) {
      throw new Unauthenticated(doc.revoked ? TOKEN_REVOKED : 'API token expired');
    }
    return {
      userId: doc.ownerId,
      credential: 'pat',
      via: `pat:${doc.name}`,
      credentialId: doc.tokenId,
      scopes: [],
    };
  }

  async function accessToken(token: string, presentation: Presentation): Promise<Caller> {
    const verified = await deps.auth.verifyAccessToken(token, presentation);
    return {
      userId: verified.userId,
      credential: 'oauth',
      via: `api:${verified.clientName}`,
      credentialId: verified.clientId,
      // a restriction the user granted holds for every token of the grant: a refresh that
      // narrows the scope (say to offline_access) must not drop service.public and so turn a
      // "post feedback only" app into full maker access
      scopes: verified.grantScopes.includes(PUBLIC_SCOPE)
        ? [...new Set([...verified.scopes, PUBLIC_SCOPE])]
        : verified.scopes,
      clientName: verified.clientName,
      clientId: verified.clientId,
    };
  }

  async function idToken(token: string): Promise<Caller> {
    const verified = await deps.auth.verifyIdToken(token, deps.trustedIssuers);
    if (ownIssuers.has(verified.issuer)) {
      // our own ID tokens carry the account id as `sub`
      if (!(await userById(deps.readStore, verified.userId))) {
        throw new Unauthenticated('the account of this ID token no longer exists');
      }
      return { userId: verified.userId, credential: 'id-token', scopes: [] };
    }
    const user = verified.email ? await userByEmail(deps.readStore, verified.email) : null;
    if (!user) {
      throw new Unauthenticated(
        'no maker account matches this ID token (it needs a verified e-mail address); sign in first',
      );
    }
    return { userId: user.userId, credential: 'id-token', scopes: [] };
  }

  /** `presentation`: how the token came (the DPoP scheme is only for DPoP-bound access tokens) */
  return async function authenticate(
    token: string,
    presentation: Presentation = { scheme: 'Bearer' },
  ): Promise<Caller> {
    const opaque = token.startsWith(TOKEN_PREFIX) || isIntegrationCredential(token);
    let typ: string | undefined;
    if (!opaque) {
      try {
        typ = decodeProtectedHeader(token).typ;
      } catch {
        throw new Unauthenticated('bearer token is neither an API token nor a JWT');
      }
    }
    const isAccessToken = typ?.toLowerCase() === 'at+jwt';
    if (presentation.scheme === 'DPoP' && !isAccessToken) {
      throw new Unauthenticated(
        'the DPoP scheme is only for DPoP-bound access tokens',
        'invalid_token',
        'DPoP',
      );
    }
    if (token.startsWith(TOKEN_PREFIX)) return personalToken(token);
    if (isIntegrationCredential(token)) return integrationCaller(deps.readStore, token);
    return isAccessToken ? accessToken(token, presentation) : idToken(token);
  };
}
