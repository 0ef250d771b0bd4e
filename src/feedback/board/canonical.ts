/**
 * A board address typed in another letter case — `/acme-co/app`, `/Acme-Co/APP/items/app-1`,
 * `/acme-co/APP/Roadmap`, from a mail or a slide — leads to its canonical spelling (workspace
 * slugs lower case, product and item keys upper case, the page names lower case, no trailing
 * slash), query string kept. Only where that address answers the page: a public product, one
 * of its pages, an item it has. A private or unknown product (or item) is no redirect, and its
 * address keeps the one 404, so the redirect tells nobody a private product is there. Only reads
 * (GET and HEAD) are sent on; a POST never is.
 *
 * 301, not 308: the two differ only for methods other than GET and HEAD, which are never sent
 * on, and 301 is the one every crawler and old client knows to move a link to. `no-cache`: the
 * answer follows the product's visibility, which can change.
 */
import type { Request, Router } from 'express';
import { findItem } from '../../../projections/items/queries.js';
import { ItemKey } from '../http/schemas.js';
import { type BoardDeps, boardUrlOf } from './context.js';
import { isBoardShaped } from './near-misses.js';
import { isBoardAddress } from './queries.js';
import { answerError, sendOn } from './respond.js';

/**
 * The pages under a board's address (pages.ts), as their canonical spelling names them: the
 * board's router matches its routes' words in their own case only (index.ts), so
 * `/acme-co/APP/Roadmap` would answer the board's 404 unless sent on first. Nothing else is sent
 * on: the suggestions and the forms' addresses in another case are no page (near-misses.ts).
 */
const PAGES = new Set(['', 'roadmap', 'changelog', 'changelog.atom', 'identity']);

/**
 * The canonical address of a read whose path spells a board page in another case, when that
 * page is there; null otherwise (the path is canonical, names no page, or its product is private
 * or unknown).
 */
export async function canonicalAddress(deps: BoardDeps, req: Request): Promise<string | null> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const [first = '', second = '', ...rest] = req.path.split('/').slice(1);
  const slug = first.toLowerCase();
  const key = second.toUpperCase();
  const page = pageOf(rest, key);
  // a canonical path (nearly every request) leaves here, before any check of its parts
  if (page === null || `/${slug}/${key}${page}` === req.path) return null;
  // the app's own top-level names (`/oauth/jwks`) are never a board's, whatever a slug spells
  if (!isBoardShaped(req.path) || !isBoardAddress(slug, key)) return null;
  const { product } = await deps.products(slug, key);
  if (!product) return null;
  const itemKey = page.startsWith('/items/') ? page.slice('/items/'.length) : null;
  if (itemKey && !(await findItem(deps.readStore, { workspaceId: product.workspaceId, itemKey })))
    return null;
  const query = req.originalUrl.indexOf('?');
  return `${boardUrlOf(deps, slug, key)}${page}${query < 0 ? '' : req.originalUrl.slice(query)}`;
}

/** `/roadmap`, `/items/APP-1`, … in canonical case ('' for the board), or null for no page */
function pageOf(segments: string[], key: string): string | null {
  // a trailing slash (`/acme-co/APP/roadmap/`) names the same page
  const rest = segments.length > 1 && segments.at(-1) === '' ? segments.slice(0, -1) : segments;
  const [raw = '', item] = rest;
  const name = raw.toLowerCase();
  if (rest.length <= 1) return PAGES.has(name) ? name && `/${name}` : null;
  const itemKey = item?.toUpperCase() ?? '';
  if (rest.length > 2 || name !== 'items' || !ItemKey.safeParse(itemKey).success) return null;
  return itemKey.startsWith(`${key}-`) ? `/items/${itemKey}` : null;
}

/**
 * First on the board's router, before any page's route: a read of a board page in another
 * spelling is sent on to its canonical address.
 * A canonical path costs a split and a comparison; only another spelling looks its product up.
 */
export function mountCanonical(router: Router, deps: BoardDeps): void {
  router.use(async (req, res, next) => {
    try {
      const to = await canonicalAddress(deps, req);
      if (!to) return next();
      res.setHeader('Cache-Control', 'no-cache');
      sendOn(res, 301, to);
    } catch (error) {
      answerError(deps, req, res, error, null);
    }
  });
}
