/**
 * The client side of "sign in with <upstream OpenID provider>", with openid-client:
 * authorization code with PKCE, state and nonce kept in the store for ten minutes, and the
 * identity read from the ID token (completed from UserInfo when the token carries no e-mail).
 * Two flows use it: the OAuth sign-in page (interaction/upstream.ts) and the public board's
 * visitors (tier `google`). Only a verified e-mail address is ever accepted.
 */
import * as oidc from 'openid-client';
import type { Doc, ReadStore } from '../readstore/types.js';
import type { UpstreamIdpOptions } from './options.js';
import { emailKey } from '../../commands/shared/email.js';

const STATE_TTL_MS = 10 * 60 * 1000;
/** how far the upstream's clock may run from ours, for exp, nbf and iat (openid-client's default) */
const CLOCK_TOLERANCE_S = 30;

interface UpstreamState extends Doc {
  /** who started it: an interaction uid, a board visitor */
  subject: string;
  verifier: string;
  nonce: string;
  callbackUrl: string;
  /** where the flow that started it goes on afterwards (the board's address) */
  returnTo?: string;
  expiresAt: number;
}

export type UpstreamIdentity =
  | { ok: true; email: string; name: string | null }
  | { ok: false; reason: 'unreachable' | 'expired' | 'unverified' | 'refused'; detail?: string };

export interface UpstreamClient {
  readonly name: string;
  /** the authorization URL to send the browser to */
  begin(input: { subject: string; callbackUrl: string; returnTo?: string }): Promise<string | null>;
  /** the started flow a callback's `state` names, while it has not expired */
  pending(stateId: unknown): Promise<{ subject: string; returnTo?: string } | null>;
  /** finishes the flow `state` names with the callback's query; the state is used up */
  finish(stateId: string, search: string, subject: string): Promise<UpstreamIdentity>;
}

export function createUpstreamClient(deps: {
  options: UpstreamIdpOptions;
  readStore: ReadStore;
  collection: string;
  now: () => number;
}): UpstreamClient {
  const { options } = deps;
  const states = deps.readStore.collection<UpstreamState>(deps.collection);
  let config: Promise<oidc.Configuration> | null = null;
  const configuration = () => {
    config ??= oidc
      .discovery(
        new URL(options.issuer),
        options.clientId,
        {
          ...(options.clientSecret ? { client_secret: options.clientSecret } : {}),
          [oidc.clockTolerance]: CLOCK_TOLERANCE_S,
        },
        options.clientSecret ? undefined : oidc.None(),
        options.allowInsecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((err: unknown) => {
        config = null; // try discovery again next time
        throw err;
      });
    return config;
  };

  return {
    name: options.name,
    async begin({ subject, callbackUrl, returnTo }) {
      let cfg: oidc.Configuration;
      try {
        cfg = await configuration();
      } catch {
        return null;
      }
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      await states.insertOne({
        _id: state,
        subject,
        verifier,
        nonce,
        callbackUrl,
        ...(returnTo ? { returnTo } : {}),
        expiresAt: deps.now() + STATE_TTL_MS,
      });
      await states.deleteMany({ expiresAt: { $lte: deps.now() } });
      await deps.readStore.flush();
      const url = oidc.buildAuthorizationUrl(cfg, {
        redirect_uri: callbackUrl,
        scope: ['openid', 'email', 'profile', ...(options.scopes ?? [])].join(' '),
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return url.href;
    },
    async pending(stateId) {
      if (typeof stateId !== 'string' || stateId.length > 200) return null;
      const state = await states.findOne({ _id: stateId });
      if (!state || state.expiresAt <= deps.now()) return null;
      return { subject: state.subject, ...(state.returnTo ? { returnTo: state.returnTo } : {}) };
    },
    async finish(stateId, search, subject) {
      const state = await states.findOne({ _id: stateId, subject });
      if (!state || state.expiresAt <= deps.now()) return { ok: false, reason: 'expired' };
      await states.deleteOne({ _id: stateId });
      await deps.readStore.flush();
      try {
        const current = new URL(state.callbackUrl);
        current.search = search;
        const cfg = await configuration();
        const tokens = await oidc.authorizationCodeGrant(cfg, current, {
          pkceCodeVerifier: state.verifier,
          expectedState: stateId,
          expectedNonce: state.nonce,
        });
        const issuedAt = tokens.claims()?.iat;
        // openid-client checks exp and nbf with its clock tolerance but never a future iat (OIDC
        // Core §3.1.3.7: "The iat Claim can be used to reject tokens that were issued too far
        // away from the current time"); the same tolerance applies
        if (typeof issuedAt === 'number' && issuedAt > deps.now() / 1000 + CLOCK_TOLERANCE_S)
          return { ok: false, reason: 'refused', detail: 'ID token issued in the future' };
        const claims = await identityClaims(cfg, tokens);
        const email = typeof claims.email === 'string' ? emailKey(claims.email) : null;
        if (!email || claims.email_verified !== true) return { ok: false, reason: 'unverified' };
        return { ok: true, email, name: typeof claims.name === 'string' ? claims.name : null };
      } catch (err) {
        const detail = err instanceof Error ? err.message : String(err);
        return { ok: false, reason: 'refused', detail };
      }
    },
  };
}

/**
 * The user's claims: the ID token's, completed from the UserInfo endpoint when the ID token
 * carries no e-mail — OpenID Connect Core 5.4 puts scope-requested claims in UserInfo whenever
 * an access token is issued too, and conformant providers (node-oidc-provider among them) do so.
 */
async function identityClaims(
  cfg: oidc.Configuration,
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
): Promise<Record<string, unknown>> {
  const fromIdToken: Record<string, unknown> = { ...(tokens.claims() ?? {}) };
  if (typeof fromIdToken.email === 'string' || typeof fromIdToken.sub !== 'string') {
    return fromIdToken;
  }
  // fetchUserInfo checks that UserInfo speaks of the same subject as the ID token
  const info = await oidc.fetchUserInfo(cfg, tokens.access_token, fromIdToken.sub);
  return { ...info, ...fromIdToken };
}
