/**
 * The sign-in pages of an interaction: the e-mail form, the code form that follows once a code
 * was sent, and their two form posts (ask for a code; check it and sign in). Codes are mailed,
 * throttled per address and network, and a lockout refuses even the right code.
 */
import { BIDI_CONTROL_RANGE } from '../../../commands/shared/text.js';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { UpstreamSignIn } from './upstream.js';
import {
  type Guard,
  type InteractionContext,
  clientNameOf,
  csrfFor,
  interactionPath as base,
  loadInteraction,
  sendHtml,
  sendThrottled,
  signInAs,
} from './context.js';
import { codeDigits, NOT_A_CODE } from './email-code.js';
import { destinationOf } from './destination.js';
import { renderCodeForm, renderEmailForm } from './views.js';

/**
 * a character of an address: no control or bidirectional control (it is shown and mailed as
 * typed), and none of the characters mail reads as structure outside quotes (RFC 5322 §3.2.3
 * specials): `owner@evil.com(victim.com)` or `team:owner@evil.com;` was mailed to owner@evil.com
 * alone, a comment and a group, while the account and its ID token (`email_verified`) named the
 * whole string
 */
const C = `[^\\s@<>"(),:;\\[\\]\\\\\\p{Cc}${BIDI_CONTROL_RANGE}]`;
const EMAIL = new RegExp(`^${C}{1,64}@${C}{1,255}\\.${C}{2,}$`, 'u');
const TOO_OFTEN = 'That code has expired or was tried too often. Ask for a new one.';
const WRONG_CODES = 'Too many wrong sign-in codes.';

export interface SignInPages {
  /** the e-mail form, or the code form while a code is pending, with `error` when given */
  show(req: Request, res: Response, status: number, error?: string): Promise<void>;
  /** the two form posts: ask for a code, then check it */
  mount(router: Router, forms: RequestHandler, guarded: Guard): void;
}

export function signInPages(ctx: InteractionContext, upstream: UpstreamSignIn | null): SignInPages {
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

  return {
    show: showSignIn,
    mount(router, forms, guarded) {
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
          // a code the store could not keep was not sent: its places are given back, not left
          // held (Retry-After: 1 for 2 minutes, then counted as a sent code)
          const code = await ctx.codes.issue(details.uid, email).catch(async (error: unknown) => {
            await place.settle(false);
            throw error;
          });
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
          // what is no code (a paste with more than the digits) is told and costs no try
          const code = codeDigits(String(req.body?.code ?? ''));
          if (code === null) return showSignIn(req, res, 400, NOT_A_CODE);
          const place = await ctx.throttle.beforeCheck(pending, ip);
          // during a lockout no code is compared, so the right one is refused as well
          if (place.status === 'throttled') return sendThrottled(res, WRONG_CODES, place.wait);
          const result = await ctx.codes.check(details.uid, code);
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
              await signInAs(ctx, req, res, { email: result.email, profile: {}, amr: 'otp' });
              return;
            }
            default: {
              const _exhaustive: never = result;
              return _exhaustive;
            }
          }
        }),
      );
    },
  };
}
