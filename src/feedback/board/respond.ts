/**
 * Answers of the board's routes. Refusals go through the service's one error mapping
 * (src/http/errors.ts resolveError + the feedback envelope): `{error, code}` JSON for API-style
 * callers (the widget, board.js, in-app capture boxes), a readable page with the same status for
 * forms and links — `Retry-After` on both. Unknown errors are logged and answered as `internal`.
 */
import type { Request, Response } from 'express';
import { resolveError } from '../../http/errors.js';
import { feedbackEnvelope } from '../../http/envelopes.js';
import { assetsUrl, type BoardDeps, wantsJson } from './context.js';
import { type BoardNav, documentOf, MessagePage } from './views/layout.js';

const envelope = feedbackEnvelope();

/** the one 404 of a private or unknown product (and of an address that names no board) */
const NO_BOARD = 'There is no public board at this address.';

const TITLES: Record<number, string> = {
  400: 'That did not work',
  403: 'Please reload the page',
  404: 'Page not found',
  429: 'Slow down a little',
  500: 'Something went wrong',
  503: 'Busy right now',
};

/**
 * A refusal's message as a visitor reads it: the service's messages start in lower case (in an
 * API answer they follow a status), but on a page, or in board.js's notice, they stand alone.
 */
export const asSentence = (message: string): string =>
  message.charAt(0).toUpperCase() + message.slice(1);

export const pageTitleOf = (status: number): string => TITLES[status] ?? 'That did not work';

/** Strict CSP for board pages: our own stylesheet and script only, no inline code, no framing. */
export const BOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * CSP of an answer whose body runs nothing and loads nothing: a redirect's "Redirecting to …"
 * page (Express writes one), the feed and JSON answers opened in a browser.
 */
export const BARE_CSP =
  "default-src 'none'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/**
 * Every board answer carries a strict CSP: this bare one, set first (boardRoute, the capture
 * endpoint, a redirect, a JSON refusal), unless it is a page, whose own replaces it (sendPage).
 */
export function loadsNothing(res: Response): void {
  res.setHeader('Content-Security-Policy', BARE_CSP);
}

/** A redirect of the board: its body, shown by a browser that does not follow, runs nothing. */
export function sendOn(res: Response, status: 301 | 302 | 303, url: string): void {
  loadsNothing(res);
  res.redirect(status, url);
}

export function sendPage(res: Response, status: number, html: string | Buffer): void {
  res.status(status);
  // a page answering a form post (a refusal, the code form again) is kept in the visitor's own
  // browser: not stored, going Back to it once past it could only send the form again
  // ("Confirm Form Resubmission"), and a code form sent again spends one of the visitor's tries
  if (res.req.method === 'POST') res.setHeader('Cache-Control', 'private, no-cache');
  pageHeaders(res);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(html);
}

/**
 * A page's own policies, on its 200 and on its 304 alike: a 304's headers replace those of the
 * copy the browser keeps (RFC 9111 §4.3.4), so a revalidated page answered with the bare CSP ran
 * none of its scripts and loaded none of its styles.
 */
export function pageHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', BOARD_CSP);
  // the board's own forms then carry their Origin (no-referrer makes browsers send "null")
  res.setHeader('Referrer-Policy', 'same-origin');
}

/**
 * An error as the board answers it; its headers (`Retry-After`) and no-store are set on `res`
 * (a page answering a form post is then kept privately instead: sendPage).
 * A visitor made for this request (visitor-http.ts) is not kept: their cookie would not match the
 * page's empty form token, and the next press would be refused as "out of date".
 */
export function refusalOf(res: Response, error: unknown) {
  if (res.locals.freshVisitor) res.removeHeader('Set-Cookie');
  const resolved = resolveError(error);
  for (const [name, value] of Object.entries(resolved.headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'no-store');
  return { ...resolved, status: envelope.status(resolved.kind) };
}

export function answerError(
  deps: BoardDeps,
  req: Request,
  res: Response,
  error: unknown,
  nav: BoardNav | null,
  json = wantsJson(req),
): void {
  const resolved = refusalOf(res, error);
  if (resolved.kind === 'internal') {
    deps.logger.error('board request failed', {
      error: error instanceof Error ? error.stack : String(error),
    });
  }
  const { status } = resolved;
  if (json) {
    loadsNothing(res);
    res.status(status).json(envelope.body(resolved.kind, resolved.message));
    return;
  }
  const title = pageTitleOf(status);
  const back = nav ? { href: nav.boardUrl, label: `Back to ${nav.productName}` } : undefined;
  // `nav` is there only once the board was found public: a 404 under it (an unknown item) may
  // say what is missing; without it, private and unknown products answer the one identical page
  const message = status === 404 && !nav ? NO_BOARD : asSentence(resolved.message);
  sendPage(
    res,
    status,
    documentOf(
      MessagePage({
        title,
        nav,
        assets: assetsUrl(deps),
        message,
        back,
      }),
    ),
  );
}
