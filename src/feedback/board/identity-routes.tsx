/**
 * /{slug}/{key}/identity (issue 12 item 2): a visitor confirms an e-mail address with a 6-digit
 * code sent to it — the sign-in mail port, a code store like sign-in's, and the sign-in throttles
 * per address and IP (plus a per-visitor bucket). Only the right code makes the visitor tier
 * `email`; typing an address proves nothing.
 */
import type { Router } from 'express';
import { z } from 'zod';
import {
  InvalidArgument,
  NotFound,
  ResourceExhausted,
  Unavailable,
} from '../../../commands/shared/errors.js';
import { readForm } from './body.js';
import { type BoardDeps, cookieVisitor, ipOf, setVisitorCookie } from './context.js';
import { navOf } from './nav.js';
import type { PublicProduct } from './queries.js';
import { answerError, sendPage } from './respond.js';
import type { Visitor } from './tokens.js';
import { boardRoute, visitorFor } from './visitor-http.js';
import { CodeForm, EmailForm } from './views/identity.js';
import { documentOf } from './views/layout.js';

/** where the upstream provider sends the visitor back (register it there with this path) */
export const UPSTREAM_CALLBACK = '/_board/upstream/callback';

const UpstreamFormBody = z.object({ csrf: z.string().max(200).optional() });
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

  router.get(
    '/:slug/:key/identity',
    boardRoute(deps, async (req, res, product) => {
      let visitor = cookieVisitor(deps, req);
      if (!visitor) {
        visitor = deps.tokens.newVisitor();
        setVisitorCookie(deps, res, visitor);
      }
      res.setHeader('Cache-Control', 'private, no-store');
      const nav = navOf(deps, product, 'identity');
      const auth = { csrf: deps.tokens.csrf(visitor) };
      sendPage(
        res,
        200,
        documentOf(
          <EmailForm
            nav={nav}
            action={identityAction(product)}
            auth={auth}
            upstream={deps.upstream?.name ?? null}
          />,
        ),
      );
    }),
  );

  router.post(
    '/:slug/:key/identity',
    boardRoute(deps, async (req, res, product) => {
      const nav = navOf(deps, product, 'identity');
      const form = await readForm(req, res, EmailFormBody);
      const visitor = visitorFor(deps, req, res, form.csrf);
      const email = form.email.trim().toLowerCase();
      const ip = ipOf(deps, req);
      const wait = await deps.throttle.beforeIssue(email, ip);
      if (wait !== null)
        throw new ResourceExhausted(`too many codes; try again in ${wait} s`, wait);
      const perVisitor = await deps.guard.codes.take(visitor.id);
      if (!perVisitor.allowed) {
        const seconds = perVisitor.retryAfterSeconds;
        throw new ResourceExhausted(`too many codes; try again in ${seconds} s`, seconds);
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
        deps.logger.warn('a board confirmation code could not be sent', { error: String(error) });
        throw new Unavailable('the code could not be sent just now; try again in a minute', 60);
      }
      res.setHeader('Cache-Control', 'private, no-store');
      const auth = { csrf: deps.tokens.csrf(visitor) };
      sendPage(
        res,
        200,
        documentOf(
          <CodeForm
            nav={nav}
            action={`${identityAction(product)}/code`}
            auth={auth}
            email={email}
          />,
        ),
      );
    }),
  );

  router.post(
    '/:slug/:key/identity/code',
    boardRoute(deps, async (req, res, product) => {
      const nav = navOf(deps, product, 'identity');
      const form = await readForm(req, res, CodeFormBody);
      const visitor = visitorFor(deps, req, res, form.csrf);
      const auth = { csrf: deps.tokens.csrf(visitor) };
      const email = await deps.codes.pendingEmail(codeUid(visitor));
      const again = (error: string) =>
        sendPage(
          res,
          400,
          documentOf(
            <EmailForm
              nav={nav}
              action={identityAction(product)}
              auth={auth}
              error={error}
              upstream={deps.upstream?.name ?? null}
            />,
          ),
        );
      if (!email) return again('That code has expired. Ask for a new one.');
      const ip = ipOf(deps, req);
      const locked = await deps.throttle.beforeCheck(email, ip);
      if (locked !== null)
        throw new ResourceExhausted(`too many wrong codes; try again in ${locked} s`, locked);
      const check = await deps.codes.check(codeUid(visitor), form.code);
      if (check.status === 'ok') {
        setVisitorCookie(deps, res, { id: visitor.id, email: check.email });
        res.redirect(303, nav.boardUrl);
        return;
      }
      if (check.status === 'expired') return again('That code has expired. Ask for a new one.');
      const lockout = await deps.throttle.afterWrong(email, ip);
      if (lockout !== null)
        throw new ResourceExhausted(`too many wrong codes; try again in ${lockout} s`, lockout);
      const left = check.attemptsLeft;
      sendPage(
        res,
        400,
        documentOf(
          <CodeForm
            nav={nav}
            action={`${identityAction(product)}/code`}
            auth={auth}
            email={email}
            error={
              left > 0
                ? `That code is not right; ${left} ${left === 1 ? 'try' : 'tries'} left.`
                : 'That code is not right. Ask for a new one.'
            }
          />,
        ),
      );
    }),
  );

  // "sign in with" the upstream provider: the visitor's address, verified there, tier google
  router.post(
    '/:slug/:key/identity/upstream',
    boardRoute(deps, async (req, res, product) => {
      const form = await readForm(req, res, UpstreamFormBody);
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
