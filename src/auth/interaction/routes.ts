/**
 * The sign-in and consent pages at /oauth/interaction/:uid. Forms post back with a CSRF token
 * bound to the interaction; the interaction itself is bound to the browser by oidc-provider's
 * path-scoped cookie.
 */
import { BIDI_CONTROL_RANGE } from '../../../commands/shared/text.js';
import express, { type Request, type Response, Router } from 'express';
import { requestIdsFor } from '../../http/respond.js';
import type { UpstreamSignIn } from './upstream.js';
import {
  type InteractionContext,
  clientNameOf,
  csrfFor,
  csrfOk,
  grantIdFor,
  loadInteraction,
  sendHtml,
  sendThrottled,
} from './context.js';
import { destinationOf } from './destination.js';
import { describeScopes } from './scope-words.js';
import { renderCodeForm, renderConsent, renderEmailForm, renderErrorPage } from './views.js';

/** a character of an address: no control or bidirectional control (it is shown and mailed as typed) */
const C = `[^\\s@<>"\\p{Cc}${BIDI_CONTROL_RANGE}]`;
const EMAIL = new RegExp(`^${C}{1,64}@${C}{1,255}\\.${C}{2,}$`, 'u');
const TOO_OFTEN = 'That code has expired or was tried too often. Ask for a new one.';
const WRONG_CODES = 'Too many wrong sign-in codes.';

export function interactionRouter(
  ctx: InteractionContext,
  upstream: UpstreamSignIn | null,
): Router {
  const router = Router();
  const forms = express.urlencoded({ extended: false, limit: '8kb' });
  const base = (uid: string) => `/oauth/interaction/${encodeURIComponent(uid)}`;

  async function showSignIn(req: Request, res: Response, status: number, error?: string) {
    const details = await loadInteraction(ctx, req, res);
    if (!details) return;
    const uid = details.uid;
    const clientName = await clientNameOf(ctx.pickProvider(req), details.params.client_id);
    const csrf = csrfFor(ctx.secret, uid);
    const pending = await ctx.codes.pendingEmail(uid);
    const destination = destinationOf(details.params.redirect_uri);
    const view = {
      serviceName: ctx.serviceName,
      clientName,
      destination,
      csrf,
      ...(error ? { error } : {}),
    };
    if (pending) {
      sendHtml(
        res,
        status,
        renderCodeForm({ ...view, email: pending, action: `${base(uid)}/code` }),
      );
      return;
    }
    const up = upstream
      ? { upstream: { name: upstream.name, action: `${base(uid)}/upstream` } }
      : {};
    sendHtml(res, status, renderEmailForm({ ...view, action: `${base(uid)}/email`, ...up }));
  }

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
    if (details.prompt.name === 'login') return showSignIn(req, res, 200);
    if (details.prompt.name !== 'consent') {
      sendHtml(res, 400, renderErrorPage('Unsupported request', `prompt ${details.prompt.name}`));
      return;
    }
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

  router.post(
    '/oauth/interaction/:uid/email',
    forms,
    guarded(async (req, res) => {
      const email = String(req.body?.email ?? '')
        .trim()
        .toLowerCase();
      if (!EMAIL.test(email)) return showSignIn(req, res, 400, 'Enter a valid e-mail address.');
      const details = await loadInteraction(ctx, req, res);
      if (!details) return;
      const place = await ctx.throttle.beforeIssue(email, ctx.clientNetwork(req));
      if (place.status === 'throttled') {
        return sendThrottled(res, 'Too many sign-in codes were asked for.', place.wait);
      }
      const code = await ctx.codes.issue(details.uid, email);
      try {
        await ctx.mail.send({
          to: email,
          subject: `Your ${ctx.serviceName} sign-in code: ${code}`,
          text: `Your sign-in code is ${code}\n\nIt is valid for 10 minutes. If you did not ask for it, ignore this message.`,
        });
      } catch (err) {
        // The mail server is down or refused the message: say so on the page, not as a 500.
        ctx.log(
          `[auth] sign-in code not sent: ${err instanceof Error ? err.message : String(err)}`,
        );
        await ctx.codes.forget(details.uid);
        await place.settle(false);
        return showSignIn(
          req,
          res,
          503,
          'The sign-in code could not be sent right now. Try again in a moment.',
        );
      }
      await place.settle(true);
      res.redirect(303, base(details.uid));
    }),
  );

  router.post(
    '/oauth/interaction/:uid/code',
    forms,
    guarded(async (req, res) => {
      const details = await loadInteraction(ctx, req, res);
      if (!details) return;
      const ip = ctx.clientNetwork(req);
      const pending = await ctx.codes.pendingEmail(details.uid);
      if (!pending) return showSignIn(req, res, 400, TOO_OFTEN);
      const place = await ctx.throttle.beforeCheck(pending, ip);
      // during a lockout no code is compared, so the right one is refused as well
      if (place.status === 'throttled') return sendThrottled(res, WRONG_CODES, place.wait);
      const result = await ctx.codes.check(details.uid, String(req.body?.code ?? ''));
      const lockout = await place.settle(result.status === 'wrong');
      switch (result.status) {
        case 'wrong': {
          if (lockout !== null) return sendThrottled(res, WRONG_CODES, lockout);
          return showSignIn(
            req,
            res,
            400,
            result.attemptsLeft > 0
              ? `That code is not right. ${result.attemptsLeft} attempt(s) left.`
              : TOO_OFTEN,
          );
        }
        case 'expired':
          return showSignIn(req, res, 400, TOO_OFTEN);
        case 'ok': {
          const account = await ctx.accounts.findOrCreateByEmail(
            result.email,
            {},
            requestIdsFor(req, res),
          );
          await ctx
            .pickProvider(req)
            .interactionFinished(
              req,
              res,
              { login: { accountId: account.id, amr: ['otp'] } },
              { mergeWithLastSubmission: false },
            );
          return;
        }
        default: {
          const _exhaustive: never = result;
          return _exhaustive;
        }
      }
    }),
  );

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

  if (upstream) upstream.mount(router, forms, guarded);
  return router;
}
