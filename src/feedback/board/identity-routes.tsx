/**
 * /{slug}/{key}/identity (issue 12 item 2): a visitor confirms an e-mail address with a 6-digit
 * code sent to it — the sign-in mail port, a code store like sign-in's, and the sign-in throttles
 * per address and IP (plus a per-visitor bucket). Only the right code makes the visitor tier
 * `email`; typing an address proves nothing. Sending a code answers with a redirect (POST,
 * redirect, GET): the page asking for the code is what GET shows while one is pending for the
 * visitor, so a reload neither sends a second code nor spends the visitor's allowance.
 */
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { InvalidArgument, NotFound, Unavailable } from '../../../commands/shared/errors.js';
import { tooMany } from '../capture/guard.js';
import { readForm } from './body.js';
import {
  type BoardDeps,
  clearVisitorCookie,
  cookieVisitor,
  ipOf,
  setVisitorCookie,
  wantsJson,
} from './context.js';
import { navOf } from './nav.js';
import type { PublicProduct } from './queries.js';
import { answerError, sendPage } from './respond.js';
import type { Visitor } from './tokens.js';
import { boardRoute, visitorFor } from './visitor-http.js';
import { CodeForm, EmailForm } from './views/identity.js';
import { documentOf } from './views/layout.js';
import { emailKey } from '../../../commands/shared/email.js';

/** where the upstream provider sends the visitor back (register it there with this path) */
export const UPSTREAM_CALLBACK = '/_board/upstream/callback';

/** a form that carries nothing but the visitor's CSRF token */
const CsrfOnlyBody = z.object({ csrf: z.string().max(200).optional() });
const EmailFormBody = z.object({ csrf: z.string().max(200).optional(), email: z.email().max(254) });
const CodeFormBody = z.object({
  csrf: z.string().max(200).optional(),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'the code is 6 digits'),
});

export function mountIdentity(router: Router, deps: BoardDeps): void {
  const identityAction = (product: PublicProduct) =>
    `${navOf(deps, product, 'identity').boardUrl}/identity`;
  const codeUid = (visitor: Visitor) => `board:${visitor.id}`;
  /** the address form (and the upstream button), or the code form for `email` */
  const formPage = (
    res: Response,
    status: number,
    product: PublicProduct,
    visitor: Visitor,
    form: { email?: string; error?: string; typed?: string },
  ) => {
    const nav = navOf(deps, product, 'identity');
    const auth = { csrf: deps.tokens.csrf(visitor) };
    const action = identityAction(product);
    res.setHeader('Cache-Control', 'private, no-store');
    sendPage(
      res,
      status,
      documentOf(
        form.email ? (
          <CodeForm
            nav={nav}
            action={`${action}/code`}
            anotherUrl={`${action}?another`}
            auth={auth}
            email={form.email}
            error={form.error}
          />
        ) : (
          <EmailForm
            nav={nav}
            action={action}
            auth={auth}
            error={form.error}
            typed={form.typed}
            upstream={deps.upstream?.name ?? null}
            confirmed={visitor.email}
            signOutAction={`${action}/sign-out`}
          />
        ),
      ),
    );
  };

  /** An address the form refused: the form again, with why and what was typed (for a page). */
  const refusedAddress = (
    req: Request,
    res: Response,
    product: PublicProduct,
    error: InvalidArgument,
  ): null => {
    const raw = (req.body ?? {}) as { csrf?: unknown; email?: unknown };
    const visitor = visitorFor(deps, req, res, typeof raw.csrf === 'string' ? raw.csrf : undefined);
    const typed = typeof raw.email === 'string' ? raw.email.slice(0, 254) : '';
    formPage(res, 400, product, visitor, { error: error.message, typed });
    return null;
  };

  router.get(
    '/:slug/:key/identity',
    boardRoute(deps, async (req, res, product) => {
      let visitor = cookieVisitor(deps, req);
      if (!visitor) {
        visitor = deps.tokens.newVisitor();
        setVisitorCookie(deps, res, visitor);
        return formPage(res, 200, product, visitor, {});
      }
      // `?another`: the visitor wants to send a code to another address instead
      const pending =
        req.query.another === undefined ? await deps.codes.pendingEmail(codeUid(visitor)) : null;
      formPage(res, 200, product, visitor, pending ? { email: pending } : {});
    }),
  );

  router.post(
    '/:slug/:key/identity',
    boardRoute(deps, async (req, res, product) => {
      const form = await readForm(req, res, EmailFormBody).catch((error: unknown) => {
        if (!(error instanceof InvalidArgument) || wantsJson(req)) throw error;
        return refusedAddress(req, res, product, error);
      });
      if (!form) return;
      const visitor = visitorFor(deps, req, res, form.csrf);
      const email = emailKey(form.email);
      const place = await deps.throttle.beforeIssue(email, ipOf(deps, req));
      if (place.status === 'throttled') throw tooMany('codes', place.wait);
      const perVisitor = await deps.guard.codes.take(visitor.id);
      if (!perVisitor.allowed) {
        await place.settle(false);
        throw tooMany('codes', perVisitor.retryAfterSeconds);
      }
      const code = await deps.codes.issue(codeUid(visitor), email);
      try {
        await deps.mail.send({
          to: email,
          subject: `Your code for ${product.name} feedback`,
          text: `Your code is ${code}. It is valid for 10 minutes.\n\nIf you did not ask for it, ignore this message.`,
        });
      } catch (error) {
        await deps.codes.forget(codeUid(visitor));
        await place.settle(false);
        deps.logger.warn('a board confirmation code could not be sent', { error: String(error) });
        throw new Unavailable('the code could not be sent just now; try again in a minute', 60);
      }
      await place.settle(true);
      res.redirect(303, identityAction(product));
    }),
  );

  router.post(
    '/:slug/:key/identity/code',
    boardRoute(deps, async (req, res, product) => {
      const form = await readForm(req, res, CodeFormBody);
      const visitor = visitorFor(deps, req, res, form.csrf);
      const email = await deps.codes.pendingEmail(codeUid(visitor));
      const expired = 'That code has expired. Ask for a new one.';
      if (!email) return formPage(res, 400, product, visitor, { error: expired });
      const ip = ipOf(deps, req);
      const place = await deps.throttle.beforeCheck(email, ip);
      if (place.status === 'throttled') throw tooMany('wrong codes', place.wait);
      const check = await deps.codes.check(codeUid(visitor), form.code);
      const lockout = await place.settle(check.status === 'wrong');
      if (check.status === 'ok') {
        setVisitorCookie(deps, res, { id: visitor.id, email: check.email });
        res.redirect(303, navOf(deps, product, 'board').boardUrl);
        return;
      }
      if (check.status === 'expired')
        return formPage(res, 400, product, visitor, { error: expired });
      if (lockout !== null) throw tooMany('wrong codes', lockout);
      const left = check.attemptsLeft;
      const error =
        left > 0
          ? `That code is not right; ${left} ${left === 1 ? 'try' : 'tries'} left.`
          : 'That code is not right. Ask for a new one.';
      formPage(res, 400, product, visitor, { email, error });
    }),
  );

  // a confirmed address stays in the cookie for a year: on a shared computer, the next person
  // would post as them and see their address, so the visitor can drop it (a form, as the others)
  router.post(
    '/:slug/:key/identity/sign-out',
    boardRoute(deps, async (req, res, product) => {
      const form = await readForm(req, res, CsrfOnlyBody);
      if (cookieVisitor(deps, req)) {
        const visitor = visitorFor(deps, req, res, form.csrf);
        await deps.codes.forget(codeUid(visitor));
        clearVisitorCookie(deps, res);
      }
      res.redirect(303, navOf(deps, product, 'board').boardUrl);
    }),
  );

  // "sign in with" the upstream provider: the visitor's address, verified there, tier google
  router.post(
    '/:slug/:key/identity/upstream',
    boardRoute(deps, async (req, res, product) => {
      const form = await readForm(req, res, CsrfOnlyBody);
      const visitor = visitorFor(deps, req, res, form.csrf);
      if (!deps.upstream) throw new NotFound('no identity provider is configured');
      const url = await deps.upstream.begin({
        subject: visitor.id,
        callbackUrl: `${deps.publicBaseUrl}${UPSTREAM_CALLBACK}`,
        returnTo: navOf(deps, product, 'board').boardUrl,
      });
      if (!url) throw new Unavailable(`${deps.upstream.name} cannot be reached right now`, 60);
      res.redirect(303, url);
    }),
  );

  router.get(UPSTREAM_CALLBACK, async (req, res) => {
    try {
      const visitor = cookieVisitor(deps, req);
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
      res.redirect(303, pending.returnTo ?? deps.publicBaseUrl);
    } catch (error) {
      answerError(deps, req, res, error, null);
    }
  });
}
