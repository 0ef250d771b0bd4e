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

const TITLES: Record<number, string> = {
  400: 'That did not work',
  403: 'Please reload the page',
  404: 'Page not found',
  429: 'Slow down a little',
  500: 'Something went wrong',
  503: 'Busy right now',
};

/** Strict CSP for board pages: our own stylesheet and script only, no inline code, no framing. */
export const BOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function sendPage(res: Response, status: number, html: string): void {
  res.status(status);
  res.setHeader('Content-Security-Policy', BOARD_CSP);
  // the board's own forms then carry their Origin (no-referrer makes browsers send "null")
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(html);
}

export function answerError(
  deps: BoardDeps,
  req: Request,
  res: Response,
  error: unknown,
  nav: BoardNav | null,
  json = wantsJson(req),
): void {
  const resolved = resolveError(error);
  if (resolved.kind === 'internal') {
    deps.logger.error('board request failed', {
      error: error instanceof Error ? error.stack : String(error),
    });
  }
  const status = envelope.status(resolved.kind);
  for (const [name, value] of Object.entries(resolved.headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'no-store');
  if (json) {
    res.status(status).json(envelope.body(resolved.kind, resolved.message));
    return;
  }
  const title = TITLES[status] ?? 'That did not work';
  const back = nav ? { href: nav.boardUrl, label: `Back to ${nav.productName}` } : undefined;
  const message = status === 404 ? 'There is no public board at this address.' : resolved.message;
  sendPage(
    res,
    status,
    documentOf(
      MessagePage({
        title,
        nav: status === 404 ? null : nav,
        assets: assetsUrl(deps),
        message,
        back,
      }),
    ),
  );
}
