/**
 * The consent page of an interaction and its two form posts: approve (the grant gains the scopes
 * the client asked for and the user had not granted yet) or deny (access_denied to the client).
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import {
  type Guard,
  type Interaction,
  type InteractionContext,
  clientNameOf,
  csrfFor,
  grantIdFor,
  interactionPath as base,
  loadInteraction,
  sendHtml,
} from './context.js';
import { destinationOf } from './destination.js';
import { describeScopes } from './scope-words.js';
import { renderConsent, renderErrorPage } from './views.js';

/** The consent page for the scopes the interaction still lacks. */
export async function showConsent(
  ctx: InteractionContext,
  req: Request,
  res: Response,
  details: Interaction,
): Promise<void> {
  const provider = ctx.pickProvider(req);
  const d = details.prompt.details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  const scopes = [
    ...(d.missingOIDCScope ?? []),
    ...Object.values(d.missingResourceScopes ?? {}).flat(),
  ];
  const account = details.session ? await ctx.accounts.findById(details.session.accountId) : null;
  const uid = details.uid;
  sendHtml(
    res,
    200,
    renderConsent({
      serviceName: ctx.serviceName,
      clientName: await clientNameOf(provider, details.params.client_id),
      destination: destinationOf(details.params.redirect_uri),
      email: account?.email ?? null,
      scopes: describeScopes([...new Set(scopes)], ctx.fullAccessWording),
      approveAction: `${base(uid)}/confirm`,
      denyAction: `${base(uid)}/abort`,
      csrf: csrfFor(ctx.secret, uid),
    }),
  );
}

/** The approve and deny posts of the consent page. */
export function mountConsent(
  ctx: InteractionContext,
  router: Router,
  forms: RequestHandler,
  guarded: Guard,
): void {
  router.post(
    '/oauth/interaction/:uid/confirm',
    forms,
    guarded(async (req, res) => {
      const details = await loadInteraction(ctx, req, res);
      if (!details) return;
      if (details.prompt.name !== 'consent' || !details.session) {
        sendHtml(
          res,
          400,
          renderErrorPage('Nothing to approve', 'Go back to the app and start again.'),
        );
        return;
      }
      const provider = ctx.pickProvider(req);
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : Object.assign(
            new provider.Grant({
              accountId: details.session.accountId,
              clientId: String(details.params.client_id),
            }),
            { jti: grantIdFor(ctx.secret, details.uid) },
          );
      if (!grant) {
        sendHtml(
          res,
          400,
          renderErrorPage('This approval has expired', 'Go back to the app and start again.'),
        );
        return;
      }
      const d = details.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (d.missingOIDCScope) grant.addOIDCScope(d.missingOIDCScope.join(' '));
      if (d.missingOIDCClaims) grant.addOIDCClaims(d.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(d.missingResourceScopes ?? {})) {
        grant.addResourceScope(indicator, scopes.join(' '));
      }
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { consent: details.grantId ? {} : { grantId } },
        { mergeWithLastSubmission: true },
      );
    }),
  );

  router.post(
    '/oauth/interaction/:uid/abort',
    forms,
    guarded(async (req, res) => {
      await ctx
        .pickProvider(req)
        .interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'The user denied access.' },
          { mergeWithLastSubmission: false },
        );
    }),
  );
}
