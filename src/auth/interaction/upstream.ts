/**
 * "Sign in with <upstream IdP>" on the sign-in page: the upstream redirects to the fixed
 * /oauth/upstream/callback, which hands over to /oauth/interaction/:uid/upstream-done, where the
 * interaction cookie (path-scoped by oidc-provider) is sent again. The OpenID client part (PKCE,
 * state, nonce, verified e-mail) is upstream-client.ts's.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import type { ReadStore } from '../../readstore/types.js';
import type { UpstreamIdpOptions } from '../options.js';
import { isStoreRefusal } from '../unavailable.js';
import { createUpstreamClient } from '../upstream-client.js';
import {
  type Guard,
  type InteractionContext,
  loadInteraction,
  sendHtml,
  signInAs,
} from './context.js';
import { renderErrorPage } from './views.js';

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
  const client = createUpstreamClient(deps);
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
          const url = await client.begin({
            subject: details.uid,
            callbackUrl: `${deps.baseUrlOf(req)}/oauth/upstream/callback`,
          });
          if (!url) return failed(res, `${options.name} cannot be reached right now.`);
          res.redirect(303, url);
        }),
      );

      router.get('/oauth/upstream/callback', async (req, res) => {
        const state = await client.pending(req.query.state);
        if (!state) {
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
          `/oauth/interaction/${encodeURIComponent(state.subject)}/upstream-done${query}`,
        );
      });

      router.get('/oauth/interaction/:uid/upstream-done', async (req, res) => {
        const details = await loadInteraction(ctx, req, res);
        if (!details) return;
        const stateId = typeof req.query.state === 'string' ? req.query.state : '';
        const search = new URL(req.originalUrl, 'http://x').search;
        const identity = await client.finish(stateId, search, details.uid);
        if (!identity.ok) {
          if (identity.reason === 'expired')
            return failed(res, 'The sign-in took too long. Start again.');
          if (identity.reason === 'unverified')
            return failed(res, `${options.name} did not share a verified e-mail address.`);
          ctx.log(`[auth] upstream sign-in failed: ${identity.detail ?? identity.reason}`);
          return failed(res, 'The answer from the identity provider was not accepted.');
        }
        try {
          const { email, name } = identity;
          await signInAs(ctx, req, res, { email, profile: { displayName: name }, amr: 'fed' });
        } catch (err) {
          // a store that cannot keep the account or the login: 503, try again (unavailable.ts)
          if (isStoreRefusal(err)) throw err;
          ctx.log(
            `[auth] upstream sign-in failed: ${err instanceof Error ? err.message : String(err)}`,
          );
          return failed(res, 'The answer from the identity provider was not accepted.');
        }
      });
    },
  };
}
