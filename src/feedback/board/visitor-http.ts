/**
 * The two steps every board route shares: resolve the public product of `/{slug}/{key}` (a path
 * that cannot name a board is left to the app's fallback; an unknown or private product is the
 * one 404) and answer any refusal through respond.ts; and, for cookie-authenticated forms, the
 * visitor — the cookie's, after its CSRF check, or a new one whose cookie is set now (there is
 * nothing of theirs to forge yet) — for requests from the board's own pages only.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { NotFound, PermissionDenied } from '../../../commands/shared/errors.js';
import { type BoardDeps, cookieVisitor, setVisitorCookie } from './context.js';
import { navOf } from './nav.js';
import { isBoardAddress, type PublicProduct } from './queries.js';
import { answerError, loadsNothing } from './respond.js';
import type { Visitor } from './tokens.js';

export function boardRoute(
  deps: BoardDeps,
  handler: (
    req: Request,
    res: Response,
    product: PublicProduct,
    version: string | null,
  ) => Promise<void>,
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const { slug, key } = req.params as { slug: string; key: string };
    if (!isBoardAddress(slug, key)) return next();
    // a page puts its own in place (respond.ts); JSON, redirects and the feed keep this one
    loadsNothing(res);
    let product: PublicProduct | null = null;
    try {
      const found = await deps.products(slug, key);
      product = found.product;
      if (!product) throw new NotFound('no public product at this address');
      await handler(req, res, product, found.version);
    } catch (error) {
      answerError(deps, req, res, error, product ? navOf(deps, product, 'none') : null);
    }
  };
}

export async function visitorFor(
  deps: BoardDeps,
  req: Request,
  res: Response,
  csrf: string | undefined,
): Promise<Visitor> {
  refuseCrossSite(deps, req);
  const visitor = await cookieVisitor(deps, req);
  if (visitor) {
    if (!deps.tokens.checkCsrf(visitor, csrf ?? req.get('x-csrf-token'))) {
      throw new PermissionDenied('the page is out of date; reload it and try again');
    }
    return visitor;
  }
  const fresh = deps.tokens.newVisitor();
  setVisitorCookie(deps, res, fresh);
  // a refusal takes the cookie back (respond.ts): the page's empty token still fits
  res.locals.freshVisitor = true;
  return fresh;
}

/**
 * A browser withholds the SameSite=Lax cookie from another site's POST, so that request would be
 * served as a new visitor — its action counted for them, and the new cookie, kept from a
 * top-level answer, would replace the visitor's own. So a browser's request from another site is
 * refused: its `Sec-Fetch-Site` says so, or (a browser without it) its `Origin` is neither the
 * board's public origin nor the host the request was sent to ("null" included). Clients that
 * send neither header (not a browser, so no visitor's cookie to abuse) are served as before.
 */
export function refuseCrossSite(deps: BoardDeps, req: Request): void {
  const site = req.get('sec-fetch-site');
  if (site === 'same-origin' || site === 'none') return;
  const origin = req.get('origin');
  if (site === undefined && origin === undefined) return;
  if (site === undefined && origin !== undefined && sameOrigin(deps, req, origin)) return;
  throw new PermissionDenied('this was sent from another site; open the board and do it there');
}

function sameOrigin(deps: BoardDeps, req: Request, origin: string): boolean {
  if (origin === new URL(deps.publicBaseUrl).origin) return true;
  try {
    return new URL(origin).host === req.get('host');
  } catch {
    return false;
  }
}
