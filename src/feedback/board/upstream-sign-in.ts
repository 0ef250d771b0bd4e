/**
 * "Sign in with …" on the identity page (issue 12 item 2): when an upstream OpenID provider is
 * configured (UPSTREAM_OIDC_*), a visitor whose address the provider verified files as tier
 * `google`. Only the browser that started such a sign-in can finish it: the pending sign-in
 * names the visitor of the cookie that started it.
 */
import type { Router } from 'express';
import { InvalidArgument, NotFound, Unavailable } from '../../../commands/shared/errors.js';
import { CsrfOnlyBody, readForm } from './body.js';
import { type BoardDeps, cookieVisitor, setVisitorCookie } from './context.js';
import { navOf } from './nav.js';
import { answerError, sendOn } from './respond.js';
import { boardRoute, visitorFor } from './visitor-http.js';

/** where the upstream provider sends the visitor back (register it there with this path) */
export const UPSTREAM_CALLBACK = '/_board/upstream/callback';

export function mountUpstreamSignIn(router: Router, deps: BoardDeps): void {
  router.post(
    '/:slug/:key/identity/upstream',
    boardRoute(deps, async (req, res, product) => {
      const form = await readForm(req, res, CsrfOnlyBody);
      const visitor = await visitorFor(deps, req, res, form.csrf);
      if (!deps.upstream) throw new NotFound('no identity provider is configured');
      const url = await deps.upstream.begin({
        subject: visitor.id,
        callbackUrl: `${deps.publicBaseUrl}${UPSTREAM_CALLBACK}`,
        returnTo: navOf(deps, product, 'board').boardUrl,
      });
      if (!url) throw new Unavailable(`${deps.upstream.name} cannot be reached right now`, 60);
      sendOn(res, 303, url);
    }),
  );

  router.get(UPSTREAM_CALLBACK, async (req, res) => {
    try {
      const visitor = await cookieVisitor(deps, req);
      const pending = deps.upstream ? await deps.upstream.pending(req.query.state) : null;
      // only the browser that started it may finish it (a sign-in started elsewhere is refused)
      if (!deps.upstream || !visitor || !pending || pending.subject !== visitor.id) {
        throw new InvalidArgument('this sign-in has expired; start again from the board');
      }
      const search = new URL(req.originalUrl, 'http://x').search;
      const identity = await deps.upstream.finish(String(req.query.state), search, visitor.id);
      if (!identity.ok) {
        if (identity.reason === 'unverified') {
          throw new InvalidArgument(
            `${deps.upstream.name} did not share a verified e-mail address`,
          );
        }
        deps.logger.warn('a board upstream sign-in failed', {
          reason: identity.detail ?? identity.reason,
        });
        throw new InvalidArgument('the answer from the identity provider was not accepted');
      }
      setVisitorCookie(deps, res, { id: visitor.id, email: identity.email, upstream: true });
      sendOn(res, 303, pending.returnTo ?? deps.publicBaseUrl);
    } catch (error) {
      answerError(deps, req, res, error, null);
    }
  });
}
