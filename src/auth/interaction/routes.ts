/**
 * The sign-in and consent pages at /oauth/interaction/:uid. Forms post back with a CSRF token
 * bound to the interaction; the interaction itself is bound to the browser by oidc-provider's
 * path-scoped cookie. The page shown follows the interaction's prompt: sign-in (sign-in.ts) or
 * consent (consent.ts).
 */
import express, { type Request, type Response, Router } from 'express';
import type { UpstreamSignIn } from './upstream.js';
import { type InteractionContext, csrfOk, loadInteraction, sendHtml } from './context.js';
import { mountConsent, showConsent } from './consent.js';
import { signInPages } from './sign-in.js';
import { renderErrorPage } from './views.js';

export function interactionRouter(
  ctx: InteractionContext,
  upstream: UpstreamSignIn | null,
): Router {
  const router = Router();
  const forms = express.urlencoded({ extended: false, limit: '8kb' });
  const signIn = signInPages(ctx, upstream);

  router.get('/oauth/interaction/:uid', async (req, res) => {
    const details = await loadInteraction(ctx, req, res);
    if (!details) return;
    // oidc-provider drops scopes it does not know; with none left the user would sign in only to
    // be sent back with access_denied. RFC 6749 §4.1.2.1: the request's scope is unknown.
    const asked = String(details.params.scope ?? '')
      .split(' ')
      .filter(Boolean);
    if (!asked.some((scope) => ctx.knownScopes.has(scope))) {
      await ctx.pickProvider(req).interactionFinished(
        req,
        res,
        {
          error: 'invalid_scope',
          error_description: `none of the requested scopes is known; known: ${[...ctx.knownScopes].join(' ')}`,
        },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.prompt.name === 'login') return signIn.show(req, res, 200);
    if (details.prompt.name !== 'consent') {
      sendHtml(res, 400, renderErrorPage('Unsupported request', `prompt ${details.prompt.name}`));
      return;
    }
    await showConsent(ctx, req, res, details);
  });

  /** guards every POST: same interaction, valid CSRF token */
  const guarded =
    (handler: (req: Request, res: Response) => Promise<void>) =>
    async (req: Request, res: Response): Promise<void> => {
      if (!csrfOk(ctx.secret, String(req.params.uid), req.body?.csrf)) {
        sendHtml(
          res,
          403,
          renderErrorPage('Invalid form', 'Reload the sign-in page and try again.'),
        );
        return;
      }
      await handler(req, res);
    };

  signIn.mount(router, forms, guarded);
  mountConsent(ctx, router, forms, guarded);
  if (upstream) upstream.mount(router, forms, guarded);
  return router;
}
