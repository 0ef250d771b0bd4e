import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import { tidyName } from '../../../commands/shared/text.js';
import { requestIdsFor } from '../../http/respond.js';
import type { AccountsPort } from '../options.js';
import type { MailPort } from '../mail/port.js';
import type { EmailCodes } from './email-code.js';
import type { SignInThrottle } from './throttle.js';
import { renderErrorPage, renderThrottled } from './views.js';

/** What the interaction pages need, shared by the e-mail, upstream and consent handlers. */
export interface InteractionContext {
  pickProvider(req: Request): Provider;
  accounts: AccountsPort;
  mail: MailPort;
  codes: EmailCodes;
  throttle: SignInThrottle;
  /** what the sign-in throttle counts a client by: its IPv4 address or IPv6 /64 (per-ip-limit.ts) */
  clientNetwork(req: Request): string;
  serviceName: string;
  /** consent wording when no data scope is asked for (feedback: the full maker surface) */
  fullAccessWording: string | null;
  secret: string;
  /** a failure the operator should see (a mail server refusing a code): logged as a warning */
  log: (line: string) => void;
  /** every scope the provider can grant: a request naming none of them gets invalid_scope */
  knownScopes: ReadonlySet<string>;
}

/**
 * Ends the interaction signed in as the account of a proven address (made at its first sign-in):
 * by a code sent to it (`otp`) or by the upstream identity provider's word (`fed`).
 */
export async function signInAs(
  ctx: InteractionContext,
  req: Request,
  res: Response,
  proven: { email: string; profile: { displayName?: string | null }; amr: 'otp' | 'fed' },
): Promise<void> {
  const { email, profile, amr } = proven;
  const account = await ctx.accounts.findOrCreateByEmail(email, profile, requestIdsFor(req, res));
  await ctx
    .pickProvider(req)
    .interactionFinished(
      req,
      res,
      { login: { accountId: account.id, amr: [amr] } },
      { mergeWithLastSubmission: false },
    );
}

/** CSRF token bound to the interaction: HMAC(secret, uid); the form must echo it back. */
export function csrfFor(secret: string, uid: string): string {
  return createHmac('sha256', secret).update(`csrf:${uid}`).digest('base64url');
}

/**
 * The id of the grant an approval of the interaction makes: HMAC(secret, uid), so two approvals
 * of one interaction that cross (a double-submitted form) write one grant, not a second one no
 * token names that would keep the app connected after its own grant ended. Not the uid itself:
 * the grant id travels in every access token, the uid is the interaction's cookie.
 */
export function grantIdFor(secret: string, uid: string): string {
  return createHmac('sha256', secret).update(`grant:${uid}`).digest('base64url');
}

export function csrfOk(secret: string, uid: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const want = Buffer.from(csrfFor(secret, uid));
  const got = Buffer.from(given);
  return want.length === got.length && timingSafeEqual(want, got);
}

export function sendHtml(res: Response, status: number, html: string): void {
  res.status(status).set('Cache-Control', 'no-store').type('html').send(html);
}

/** HTTP 429 with Retry-After and a page saying why and for how long. */
export function sendThrottled(res: Response, reason: string, retryAfterSeconds: number): void {
  res.set('Retry-After', String(retryAfterSeconds));
  sendHtml(res, 429, renderThrottled(reason, retryAfterSeconds));
}

function sendExpired(res: Response): void {
  sendHtml(
    res,
    400,
    renderErrorPage('This sign-in has expired', 'Go back to the app and start connecting again.'),
  );
}

/**
 * The interaction for this request, or null (and a 400 page) when it is gone, expired or not
 * ours. Anything else is thrown: a store that cannot be read is not an expired sign-in — the auth
 * router answers it 503 with Retry-After (unavailable.ts), and the person tries again rather than
 * starting over.
 */
export async function loadInteraction(ctx: InteractionContext, req: Request, res: Response) {
  let details: Awaited<ReturnType<Provider['interactionDetails']>>;
  try {
    details = await ctx.pickProvider(req).interactionDetails(req, res);
  } catch (error) {
    // no cookie, no such interaction (expired ones read as absent), its session gone or changed
    if (!(error instanceof errors.SessionNotFound)) throw error;
    sendExpired(res);
    return null;
  }
  if (details.uid !== String(req.params.uid)) {
    sendExpired(res);
    return null;
  }
  return details;
}

/**
 * The client's name as the sign-in and consent pages show it: its own claim, made showable as a
 * submitter's name is (tidyName). A bidirectional override in it would reorder what is shown —
 * `\u202E` before "draob kcabdeeF" reads "Feedback board", past the registration's check of the
 * service's own name, and turns the page's own sentence after it around as well.
 */
export async function clientNameOf(provider: Provider, clientId: unknown): Promise<string> {
  const client = typeof clientId === 'string' ? await provider.Client.find(clientId) : undefined;
  return (
    tidyName(client?.clientName) ?? (typeof clientId === 'string' ? clientId : 'An application')
  );
}

/** The path of an interaction's page; its forms post to sub-paths of it. */
export const interactionPath = (uid: string): string =>
  `/oauth/interaction/${encodeURIComponent(uid)}`;

/** Wraps a POST handler in the checks every form post passes first (routes.ts `guarded`). */
export type Guard = (h: (req: Request, res: Response) => Promise<void>) => RequestHandler;

/** What loadInteraction found: a live interaction of this browser. */
export type Interaction = NonNullable<Awaited<ReturnType<typeof loadInteraction>>>;
