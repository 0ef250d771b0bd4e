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
import { codeDigits, NOT_A_CODE } from '../../auth/interaction/email-code.js';
import { InvalidArgument, Unavailable } from '../../../commands/shared/errors.js';
import { emailKey } from '../../../commands/shared/email.js';
import { tooMany } from '../capture/guard.js';
import { CsrfOnlyBody, readForm } from './body.js';
import { codeMail } from './code-mail.js';
import {
  type BoardDeps,
  clearVisitorCookie,
  cookieVisitor,
  ipOf,
  setVisitorCookie,
  wantsJson,
} from './context.js';
import { identityAction, sendIdentityPage } from './identity-page.js';
import { navOf } from './nav.js';
import type { PublicProduct } from './queries.js';
import type { Visitor } from './tokens.js';
import { mountUpstreamSignIn } from './upstream-sign-in.js';
import { boardRoute, visitorFor } from './visitor-http.js';
import { sendOn } from './respond.js';

const EmailFormBody = z.object({ csrf: z.string().max(200).optional(), email: z.email().max(254) });
/** the code as typed; what is not 6 digits is told on the code form (NOT_A_CODE), not a 400 page */
const CodeFormBody = z.object({ csrf: z.string().max(200).optional(), code: z.string().max(100) });

export function mountIdentity(router: Router, deps: BoardDeps): void {
  const codeUid = (visitor: Visitor) => `board:${visitor.id}`;
  const formPage = (
    res: Response,
    status: number,
    product: PublicProduct,
    visitor: Visitor,
    form: { email?: string; error?: string; typed?: string },
  ) => sendIdentityPage(deps, res, status, product, visitor, form);

  /** An address the form refused: the form again, with why and what was typed (for a page). */
  const refusedAddress = async (
    req: Request,
    res: Response,
    product: PublicProduct,
    error: InvalidArgument,
  ): Promise<null> => {
    const raw = (req.body ?? {}) as { csrf?: unknown; email?: unknown };
    const csrf = typeof raw.csrf === 'string' ? raw.csrf : undefined;
    const visitor = await visitorFor(deps, req, res, csrf);
    const typed = typeof raw.email === 'string' ? raw.email.slice(0, 254) : '';
    formPage(res, 400, product, visitor, { error: error.message, typed });
    return null;
  };

  router.get(
    '/:slug/:key/identity',
    boardRoute(deps, async (req, res, product) => {
      let visitor = await cookieVisitor(deps, req);
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
      const visitor = await visitorFor(deps, req, res, form.csrf);
      const email = emailKey(form.email);
      // the visitor's own bucket is held with sign-in's limits: all or none, given back when
      // the code could not be sent (nothing reached the visitor to count)
      const place = await deps.throttle.beforeIssue(email, ipOf(deps, req), [
        [deps.guard.codes, visitor.id],
      ]);
      if (place.status === 'throttled') throw tooMany('codes', place.wait);
      // a code the store could not keep was not sent either: its places are given back
      const code = await deps.codes.issue(codeUid(visitor), email).catch(async (error: unknown) => {
        await place.settle(false);
        throw error;
      });
      try {
        // the service's words in the subject, the product's name quoted in the body (code-mail.ts)
        await deps.mail.send(codeMail(email, product, code));
      } catch (error) {
        await deps.codes.forget(codeUid(visitor));
        await place.settle(false);
        deps.logger.warn('a board confirmation code could not be sent', { error: String(error) });
        throw new Unavailable('the code could not be sent just now; try again in a minute', 60);
      }
      await place.settle(true);
      sendOn(res, 303, identityAction(deps, product));
    }),
  );

  router.post(
    '/:slug/:key/identity/code',
    boardRoute(deps, async (req, res, product) => {
      const form = await readForm(req, res, CodeFormBody);
      const visitor = await visitorFor(deps, req, res, form.csrf);
      const email = await deps.codes.pendingEmail(codeUid(visitor));
      const expired = 'That code has expired. Ask for a new one.';
      if (!email) return formPage(res, 400, product, visitor, { error: expired });
      const code = codeDigits(form.code);
      if (!code && wantsJson(req)) throw new InvalidArgument(NOT_A_CODE);
      if (!code) return formPage(res, 400, product, visitor, { email, error: NOT_A_CODE });
      const ip = ipOf(deps, req);
      const place = await deps.throttle.beforeCheck(email, ip);
      if (place.status === 'throttled') throw tooMany('wrong codes', place.wait);
      const check = await deps.codes.check(codeUid(visitor), code);
      const lockout = await place.settle(check.status === 'wrong');
      if (check.status === 'ok') {
        setVisitorCookie(deps, res, { id: visitor.id, email: check.email });
        sendOn(res, 303, navOf(deps, product, 'board').boardUrl);
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
      if (await cookieVisitor(deps, req)) {
        const visitor = await visitorFor(deps, req, res, form.csrf);
        await deps.codes.forget(codeUid(visitor));
        // every copy of the cookie stops naming them, not only this browser's (sign-outs.ts)
        await deps.signOuts.retire(visitor.id);
        clearVisitorCookie(deps, res);
        // and every page the browser kept of them goes: Back no longer shows one naming them
        // from the back/forward cache or the HTTP cache (Chromium evicts both; the pages
        // answered to a confirmed visitor are not stored either: page-answer.ts)
        res.setHeader('Clear-Site-Data', '"cache"');
      }
      sendOn(res, 303, navOf(deps, product, 'board').boardUrl);
    }),
  );

  mountUpstreamSignIn(router, deps);
}
