/**
 * Addresses shaped like a board's that name none: a workspace slug and a product key in another
 * case (`/acme-co/app`, `/Acme-Co/APP`), or a page a board does not have (`/acme-co/APP/items`,
 * `/acme-co/APP/foo`). Someone typed or followed a board address, so a GET gets the board's 404
 * page — the one private and unknown products answer — instead of the API's JSON 404 (a client
 * that asks for JSON still gets JSON).
 *
 * Mounted last on the board's router, which runs after the API operations but before the MCP
 * and OAuth routers and the app's fallback (src/feedback/app.ts). So a path is taken only when
 * its first segment could be a slug in some case — which `/v1`, `/mcp`, `/docs`, `/dev`,
 * `/.well-known` and `/_board` cannot — and is not one of the app's own top-level names that
 * could (below): those stay with their routers and the JSON fallback.
 */
import type { Router } from 'express';
import { NotFound } from '../../../commands/shared/errors.js';
import { ProductKey, Slug } from '../http/schemas.js';
import type { BoardDeps } from './context.js';
import { answerError } from './respond.js';

/** top-level paths of the app that a slug could spell: OAuth, the capture API, health, metrics */
const OTHER_PARTS = new Set(['oauth', 'capture', 'healthz', 'readyz', 'metrics']);

/** `/<slug>/<anything>`, or deeper under `/<slug>/<key>`, letter case aside */
export function isBoardShaped(path: string): boolean {
  const [first, second, ...rest] = path.split('/').slice(1);
  if (first === undefined || second === undefined) return false;
  const slug = first.toLowerCase();
  if (OTHER_PARTS.has(slug) || !Slug.safeParse(slug).success) return false;
  return rest.length === 0 || ProductKey.safeParse(second.toUpperCase()).success;
}

export function mountNearMisses(router: Router, deps: BoardDeps): void {
  router.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isBoardShaped(req.path)) return next();
    answerError(deps, req, res, new NotFound('no public board at this address'), null);
  });
}
