/**
 * The two steps every board route shares: resolve the public product of `/{slug}/{key}` (a path
 * that cannot name a board is left to the app's fallback; an unknown or private product is the
 * one 404) and answer any refusal through respond.ts; and, for cookie-authenticated forms, the
 * visitor — the cookie's, after its CSRF check, or a new one whose cookie is set now (there is
 * nothing of theirs to forge yet).
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { NotFound, PermissionDenied } from '../../../commands/shared/errors.js';
import { type BoardDeps, cookieVisitor, setVisitorCookie } from './context.js';
import { navOf } from './nav.js';
import { isBoardAddress, type PublicProduct } from './queries.js';
import { answerError } from './respond.js';
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

export function visitorFor(
  deps: BoardDeps,
  req: Request,
  res: Response,
  csrf: string | undefined,
): Visitor {
  const visitor = cookieVisitor(deps, req);
  if (visitor) {
    if (!deps.tokens.checkCsrf(visitor, csrf ?? req.get('x-csrf-token'))) {
      throw new PermissionDenied('the page is out of date; reload it and try again');
    }
    return visitor;
  }
  const fresh = deps.tokens.newVisitor();
  setVisitorCookie(deps, res, fresh);
  return fresh;
}
