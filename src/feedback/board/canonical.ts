/**
 * A board address typed in another letter case — `/acme-co/app`, `/Acme-Co/APP/items/app-1`,
 * from a mail or a slide — leads to its canonical spelling (workspace slugs lower case, product
 * and item keys upper case), query string kept. Only where that address answers the page: a
 * public product, one of its pages, an item it has. A private or unknown product (or item) is
 * no redirect, and its address keeps the one 404, so the redirect tells nobody a private product
 * is there. Only reads (GET and HEAD) are sent on; a POST never is.
 *
 * 301, not 308: the two differ only for methods other than GET and HEAD, which are never sent
 * on, and 301 is the one every crawler and old client knows to move a link to. `no-cache`: the
 * answer follows the product's visibility, which can change.
 */
import type { Request, Response } from 'express';
import { findItem } from '../../../projections/items/queries.js';
import { ItemKey } from '../http/schemas.js';
import { type BoardDeps, boardUrlOf } from './context.js';
import { isBoardAddress } from './queries.js';

/** the pages under a board's address whose canonical spelling is the same but for the keys */
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
  const page = isBoardAddress(slug, key) ? pageOf(rest, key) : null;
  if (page === null || `/${slug}/${key}${page}` === req.path) return null;
  const { product } = await deps.products(slug, key);
  if (!product) return null;
  const itemKey = page.startsWith('/items/') ? page.slice('/items/'.length) : null;
  if (itemKey && !(await findItem(deps.readStore, { workspaceId: product.workspaceId, itemKey })))
    return null;
  const query = req.originalUrl.indexOf('?');
  return `${boardUrlOf(deps, slug, key)}${page}${query < 0 ? '' : req.originalUrl.slice(query)}`;
}

/** `/roadmap`, `/items/APP-1`, … in canonical case ('' for the board), or null for no page */
function pageOf(rest: string[], key: string): string | null {
  const [name = '', item] = rest;
  if (rest.length <= 1) return PAGES.has(name) ? name && `/${name}` : null;
  const itemKey = item?.toUpperCase() ?? '';
  if (rest.length > 2 || name !== 'items' || !ItemKey.safeParse(itemKey).success) return null;
  return itemKey.startsWith(`${key}-`) ? `/items/${itemKey}` : null;
}

/** Sends a read on to its canonical address; false when there is none (canonicalAddress). */
export async function sentOnToCanonical(
  deps: BoardDeps,
  req: Request,
  res: Response,
): Promise<boolean> {
  const to = await canonicalAddress(deps, req);
  if (!to) return false;
  res.setHeader('Cache-Control', 'no-cache');
  res.redirect(301, to);
  return true;
}
