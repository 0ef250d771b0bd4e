/**
 * Addresses shaped like a board's that name none: a workspace slug and a product key in another
 * case (`/acme-co/app`, `/Acme-Co/APP`) — those of a public board's page were sent on to the
 * canonical address first (canonical.ts) —, a page a board does not have (`/acme-co/APP/items`,
 * `/acme-co/APP/foo`), or a board address that is no page in another case (`…/Suggest`,
 * `…/Identity/Code`: the board's router matches its words in their own case only, index.ts).
 * Someone typed or followed a board address, or a form or script was sent to one, so any method
 * gets the board's 404 — the one private and unknown products answer: a page, or the JSON
 * envelope for a client that asks for JSON — instead of the API's JSON 404. The same goes for a
 * board address with a broken
 * percent-escape (`/acme-co/APP/items/%ZZ`, a link cut or mistyped): the router cannot decode it,
 * and the visitor gets the board's 400 page, not the API's JSON error.
 *
 * Mounted last on the board's router, which runs after the API operations but before the MCP
 * and OAuth routers and the app's fallback (src/feedback/app.ts). So a path is taken only when
 * its first segment could be a slug in some case — which `/v1`, `/mcp`, `/docs`, `/dev`,
 * `/.well-known` and `/_board` cannot — and is not one of the app's own top-level names that
 * could (below): those stay with their routers and the JSON fallback.
 */
import type { ErrorRequestHandler, Router } from 'express';
import { InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
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
    if (!isBoardShaped(req.path)) return next();
    answerError(deps, req, res, new NotFound('no public board at this address'), null);
  });
  // the router's own error: a path parameter it could not percent-decode (no product looked up,
  // so a private and an unknown product answer alike)
  const undecodable: ErrorRequestHandler = (error, req, res, next) => {
    if (!(error instanceof URIError) || !isBoardShaped(req.path)) return next(error);
    answerError(deps, req, res, new InvalidArgument(BROKEN_ADDRESS), null);
  };
  router.use(undecodable);
}

export const BROKEN_ADDRESS =
  'This address has a broken %-escape, so it leads nowhere; check the link or type it again.';
