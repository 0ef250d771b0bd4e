/**
 * A capture form posted without JavaScript and refused for its content, its timing or a rate
 * limit (400, 429): the board comes back under the same status (and `Retry-After`) with the
 * reason in the capture box and what was typed still in it — not a separate page whose only
 * link reloads an empty form — showing the list the visitor was on (sort, filter, search, page:
 * the form's action carries them, board-page.tsx), not the default one. The form token sent is kept while it is still good (a post "sent
 * too fast" goes through once the fill time has passed), else a fresh one is given.
 *
 * So does a post from the board's own page whose CSRF token went stale (403): the visitor's
 * cookie was made or changed after the page was shown — a +1 or a confirmed address in another
 * tab — and the page comes back with their token, so sending it again files it. Another site's
 * post gets the plain 403 page and no token (refuseCrossSite).
 */
import type { Request, Response } from 'express';
import { cutAt } from '../../../commands/shared/text.js';
import { boardQueryOf, renderBoard } from './board-page.js';
import { type BoardDeps, cookieVisitor, wantsJson } from './context.js';
import type { PublicProduct } from './queries.js';
import { asSentence, pageTitleOf, refusalOf, sendPage } from './respond.js';
import { FORM_MAX_AGE_MS } from './tokens.js';
import { refuseCrossSite } from './visitor-http.js';

const SHOWN_AGAIN = new Set([400, 429]);

const STALE_PAGE =
  'This page was older than what you did on the board in another tab; it is up to date now, ' +
  'so send your feedback again.';

/** a post the board's own page sent (not another site's: refuseCrossSite lets it through) */
function fromOwnPage(deps: BoardDeps, req: Request): boolean {
  try {
    refuseCrossSite(deps, req);
    return true;
  } catch {
    return false;
  }
}

/** Answers the refusal as the board with the form filled in; false when it is not that case. */
export async function answerRefusedCapture(
  deps: BoardDeps,
  req: Request,
  res: Response,
  product: PublicProduct,
  error: unknown,
): Promise<boolean> {
  if (wantsJson(req)) return false;
  const raw: Record<string, unknown> =
    req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {};
  const typed = (name: string, max: number) => {
    const value = raw[name];
    return typeof value === 'string' ? cutAt(value, max) : '';
  };
  // a filled honeypot is a bot's post: it gets the plain refusal, not a rendered board
  if (typed('website', 1)) return false;
  const ownPage = fromOwnPage(deps, req);
  const refusal = refusalOf(res, error);
  const stale = refusal.status === 403 && ownPage;
  if (!SHOWN_AGAIN.has(refusal.status) && !stale) return false;
  // the visitor's forms (CSRF) for a post that carried their token or came from the board's page
  const cookie = await cookieVisitor(deps, req);
  const carried = cookie && deps.tokens.checkCsrf(cookie, raw.csrf ?? req.get('x-csrf-token'));
  const visitor = cookie && (carried || ownPage) ? cookie : null;
  const sent = typed('formToken', 1024);
  const stamp = deps.tokens.openForm(sent, product.scope);
  const stillGood = stamp?.source === 'board' && deps.now() - stamp.issuedAt <= FORM_MAX_AGE_MS;
  const html = await renderBoard(
    deps,
    { product, visitor, now: deps.now() },
    // the list the form was on, from its action's query string: the board's known parameters only
    boardQueryOf(req.query),
    stillGood ? sent : deps.tokens.form('board', product.scope),
    {
      headline: stale ? 'Send it again' : pageTitleOf(refusal.status),
      message: stale ? STALE_PAGE : asSentence(refusal.message),
      title: typed('title', 200),
      body: typed('body', 5000),
      displayName: typed('displayName', 100),
    },
  );
  sendPage(res, refusal.status, html);
  return true;
}
