/**
 * The addresses the board's forms post to, opened as pages. After a post without JavaScript the
 * address bar shows the form's address — `/capture/{slug}/{key}` after "sent too fast",
 * `…/identity/code` after a wrong code, `…/items/{itemKey}/plus-one` after a refused +1 — and
 * pressing Enter there, a bookmark, or a tab the browser opens again sends a GET to it. That GET
 * is sent on (303) to the page holding the form — for the capture box, the list it was on —
 * instead of the capture endpoint's JSON or "There is no public board at this address" on a
 * board that is there. A private or unknown
 * product answers the one 404, as everywhere (boardRoute).
 */
import type { Request, RequestHandler, Router } from 'express';
import { boardQueryOf } from './board-page.js';
import type { BoardDeps } from './context.js';
import { navOf } from './nav.js';
import { boardHref } from './views/board.js';
import { boardRoute } from './visitor-http.js';
import { sendOn } from './respond.js';

/** a browser opening a page (its Accept names HTML), not a script asking for data */
const opensPage = (req: Request): boolean => /\btext\/html\b/.test(req.get('accept') ?? '');

export function mountFormAddresses(router: Router, deps: BoardDeps): void {
  const sendTo = (page: (boardUrl: string, req: Request) => string): RequestHandler =>
    boardRoute(deps, async (req, res, product) => {
      res.setHeader('Cache-Control', 'no-store');
      sendOn(res, 303, page(navOf(deps, product, 'none').boardUrl, req));
    });
  const identity = sendTo((board) => `${board}/identity`);
  for (const step of ['code', 'sign-out', 'upstream']) {
    router.get(`/:slug/:key/identity/${step}`, identity);
  }
  router.get(
    '/:slug/:key/items/:itemKey/plus-one',
    sendTo((board, req) => `${board}/items/${encodeURIComponent(String(req.params.itemKey))}`),
  );
  // the widget and in-app capture boxes GET the endpoint for its JSON (capture.ts): only a page
  // opened in the browser is sent to the board
  // to the list the capture box was on: its action carries the board's query (board-page.tsx),
  // rebuilt here from the board's known parameters only, never an open redirect
  const board = sendTo((url, req) => boardHref(url, boardQueryOf(req.query)));
  router.get('/capture/:slug/:key', (req, res, next) =>
    opensPage(req) ? board(req, res, next) : next(),
  );
}
