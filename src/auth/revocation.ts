/**
 * POST /oauth/revoke for our JWT access tokens. oidc-provider stores no JWT access tokens and
 * refuses to revoke them (unsupported_token_type), so a JWT presented by its own client is put on
 * a deny list until it expires (each revocation also prunes the entries whose token has expired,
 * so the list holds only tokens that could still be presented); everything else (refresh tokens) goes on to oidc-provider, which
 * also drops the grant and with it every access token (verifyAccessToken checks the grant).
 */
import express, { type RequestHandler } from 'express';
import { decodeJwt } from 'jose';
import type { Collection, ReadStore } from '../readstore/types.js';
import type { RevokedJti, VerifiedAccessToken } from './access-token.js';
import { bodyRefusal } from './body-refusal.js';
import type { Presentation } from './dpop.js';
import { Unauthenticated } from './errors.js';

export function revocationPrecheck(deps: {
  verifyAccessToken: (token: string, presentation: Presentation) => Promise<VerifiedAccessToken>;
  revoked: Collection<RevokedJti>;
  readStore: ReadStore;
  now: () => number;
}): RequestHandler[] {
  const handler: RequestHandler = async (req, res, next) => {
    const token = typeof req.body?.token === 'string' ? req.body.token : '';
    if (token.split('.').length !== 3) return next();
    const clientId = typeof req.body?.client_id === 'string' ? req.body.client_id : null;
    // RFC 7009 §2.1: the client identifies itself; without client_id oidc-provider answers
    // invalid_request, as it does for a refresh token, rather than a 200 that revoked nothing
    if (!clientId) return next();
    let verified: VerifiedAccessToken;
    try {
      verified = await deps.verifyAccessToken(token, { scheme: 'revocation' });
    } catch (error) {
      // RFC 7009 §2.2: an invalid or expired token is answered like a revoked one
      if (error instanceof Unauthenticated) return void res.status(200).end();
      throw error;
    }
    const { jti } = decodeJwt(token);
    // like oidc-provider for refresh tokens: another client's token is silently left alone
    if (clientId === verified.clientId && typeof jti === 'string') {
      // a deny-list entry the store refused (a full disk) is no revocation a restart keeps: the
      // error reaches the auth router's answer (503, unavailable.ts) and the client tries again
      await deps.revoked.replaceOne(
        { _id: jti },
        { _id: jti, expiresAt: verified.expiresAt.getTime() },
        { upsert: true },
      );
      await deps.revoked.deleteMany({ expiresAt: { $lte: deps.now() } });
      await deps.readStore.flush();
    }
    res.status(200).end();
  };
  return [
    express.urlencoded({ extended: false, limit: '16kb' }),
    bodyRefusal({ error: 'invalid_request' }),
    handler,
  ];
}
