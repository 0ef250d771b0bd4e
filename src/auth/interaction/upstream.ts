/**
 * "Sign in with <upstream IdP>": authorization-code flow with PKCE against an upstream OpenID
 * provider, using openid-client. The upstream redirects to the fixed /oauth/upstream/callback,
 * which hands over to /oauth/interaction/:uid/upstream-done, where the interaction cookie
 * (path-scoped by oidc-provider) is sent again.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import * as oidc from 'openid-client';
import type { Doc, ReadStore } from '../../readstore/types.js';
import type { UpstreamIdpOptions } from '../options.js';
import { type InteractionContext, loadInteraction, sendHtml } from './context.js';
import { renderErrorPage } from './views.js';

const STATE_TTL_MS = 10 * 60 * 1000;

interface UpstreamState extends Doc {
  uid: string;
  verifier: string;
  nonce: string;
  callbackUrl: string;
  expiresAt: number;
}

type Guard = (h: (req: Request, res: Response) => Promise<void>) => RequestHandler;

export interface UpstreamSignIn {
  name: string;
  mount(router: Router, forms: RequestHandler, guarded: Guard): void;
}

export function createUpstreamSignIn(deps: {
  options: UpstreamIdpOptions;
  ctx: InteractionContext;
  readStore: ReadStore;
  collection: string;
  /** the base URL the browser is on (the upstream redirects back there) */
  baseUrlOf: (req: Request) => string;
  now: () => number;
}): UpstreamSignIn {
  const { options, ctx } = deps;
  const states = deps.readStore.collection<UpstreamState>(deps.collection);
  let config: Promise<oidc.Configuration> | null = null;
  const configuration = () => {
    config ??= oidc
      .discovery(
        new URL(options.issuer),
        options.clientId,
        options.clientSecret,
        options.clientSecret ? undefined : oidc.None(),
        options.allowInsecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((err: unknown) => {
        config = null; // try discovery again next time
        throw err;
      });
    return config;
  };
  const failed = (res: Response, why: string) =>
    sendHtml(res, 502, renderErrorPage(`Sign-in with ${options.name} failed`, why));

  return {
    name: options.name,
    mount(router, forms, guarded) {
      router.post(
        '/oauth/interaction/:uid/upstream',
        forms,
        guarded(async (req, res) => {
          const details = await loadInteraction(ctx, req, res);
          if (!details) return;
          let cfg: oidc.Configuration;
          try {
            cfg = await configuration();
          } catch {
            return failed(res, `${options.name} cannot be reached right now.`);
          }
          const verifier = oidc.randomPKCECodeVerifier();
          const state = oidc.randomState();
          const nonce = oidc.randomNonce();
          const callbackUrl = `${deps.baseUrlOf(req)}/oauth/upstream/callback`;
          await states.insertOne({
            _id: state,
            uid: details.uid,
            verifier,
            nonce,
            callbackUrl,
            expiresAt: deps.now() + STATE_TTL_MS,
          });
          await deps.readStore.flush();
          const url = oidc.buildAuthorizationUrl(cfg, {
            redirect_uri: callbackUrl,
            scope: ['openid', 'email', 'profile', ...(options.scopes ?? [])].join(' '),
            code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
            code_challenge_method: 'S256',
            state,
            nonce,
          });
          res.redirect(303, url.href);
        }),
      );

      router.get('/oauth/upstream/callback', async (req, res) => {
        const state =
          typeof req.query.state === 'string'
            ? await states.findOne({ _id: req.query.state })
            : null;
        if (!state || state.expiresAt <= deps.now()) {
          sendHtml(
            res,
            400,
            renderErrorPage('This sign-in has expired', 'Go back to the app and start again.'),
          );
          return;
        }
        const query = new URL(req.originalUrl, 'http://x').search;
        res.redirect(
          303,
          `/oauth/interaction/${encodeURIComponent(state.uid)}/upstream-done${query}`,
        );
      });

      router.get('/oauth/interaction/:uid/upstream-done', async (req, res) => {
        const details = await loadInteraction(ctx, req, res);
        if (!details) return;
        const stateId = typeof req.query.state === 'string' ? req.query.state : '';
        const state = await states.findOne({ _id: stateId, uid: details.uid });
        if (!state || state.expiresAt <= deps.now())
          return failed(res, 'The sign-in took too long. Start again.');
        await states.deleteOne({ _id: stateId });
        await deps.readStore.flush();
        try {
          const current = new URL(state.callbackUrl);
          current.search = new URL(req.originalUrl, 'http://x').search;
          const cfg = await configuration();
          const tokens = await oidc.authorizationCodeGrant(cfg, current, {
            pkceCodeVerifier: state.verifier,
            expectedState: stateId,
            expectedNonce: state.nonce,
          });
          const claims = await identityClaims(cfg, tokens);
          const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : null;
          if (!email || claims.email_verified !== true)
            return failed(res, `${options.name} did not share a verified e-mail address.`);
          const name = typeof claims.name === 'string' ? claims.name : null;
          const account = await ctx.accounts.findOrCreateByEmail(email, { displayName: name });
          await ctx
            .pickProvider(req)
            .interactionFinished(
              req,
              res,
              { login: { accountId: account.id, amr: ['fed'] } },
              { mergeWithLastSubmission: false },
            );
        } catch (err) {
          ctx.log(
            `[auth] upstream sign-in failed: ${err instanceof Error ? err.message : String(err)}`,
          );
          return failed(res, 'The answer from the identity provider was not accepted.');
        }
      });
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
