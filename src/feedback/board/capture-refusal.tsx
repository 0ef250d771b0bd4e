/**
 * A capture form posted without JavaScript and refused for its content, its timing or a rate
 * limit (400, 429): the board comes back under the same status (and `Retry-After`) with the
 * reason in the capture box and what was typed still in it — not a separate page whose only
 * link reloads an empty form. The form token sent is kept while it is still good (a post "sent
 * too fast" goes through once the fill time has passed), else a fresh one is given.
 */
import type { Request, Response } from 'express';
import { cutAt } from '../../../commands/shared/text.js';
import { boardQueryOf, renderBoard } from './board-page.js';
import { type BoardDeps, cookieVisitor, wantsJson } from './context.js';
import type { PublicProduct } from './queries.js';
import { pageTitleOf, refusalOf, sendPage } from './respond.js';
import { FORM_MAX_AGE_MS } from './tokens.js';

const SHOWN_AGAIN = new Set([400, 429]);

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
  const refusal = refusalOf(res, error);
  if (!SHOWN_AGAIN.has(refusal.status)) return false;
  // the visitor's forms (CSRF) only for a post that carried their token
  const cookie = cookieVisitor(deps, req);
  const visitor =
    cookie && deps.tokens.checkCsrf(cookie, raw.csrf ?? req.get('x-csrf-token')) ? cookie : null;
  const sent = typed('formToken', 1024);
  const stamp = deps.tokens.openForm(sent, product.scope);
  const stillGood = stamp?.source === 'board' && deps.now() - stamp.issuedAt <= FORM_MAX_AGE_MS;
  const html = await renderBoard(
    deps,
    { product, visitor, now: deps.now() },
    boardQueryOf({}),
    stillGood ? sent : deps.tokens.form('board', product.scope),
    {
      headline: pageTitleOf(refusal.status),
      message: refusal.message,
      title: typed('title', 200),
      body: typed('body', 5000),
      displayName: typed('displayName', 100),
    },
  );
  sendPage(res, refusal.status, html);
  return true;
}
