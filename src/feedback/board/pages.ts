/**
 * The board's pages (issue 12 item 1), server-rendered from the read models:
 *   /{slug}/{key}                      the board (board-page.tsx)
 *   /{slug}/{key}/items/{itemKey}      an item and its thread (item-page.tsx)
 *   /{slug}/{key}/roadmap, /changelog, /changelog.atom (product-pages.tsx)
 *   /{slug}/{key}/suggest?q=           JSON suggestions while a title is typed (board-page.tsx)
 * A private or unknown product answers the same 404 page; answers are cached as page-answer.ts
 * says.
 */
import { Router } from 'express';
import { boardPageRouter } from './board-page.js';
import type { BoardDeps } from './context.js';
import { itemPageRouter } from './item-page.js';
import { createPageAnswers } from './page-answer.js';
import { productPagesRouter } from './product-pages.js';

export function pageRouter(deps: BoardDeps): Router {
  const pages = createPageAnswers(deps);
  const router = Router();
  router.use(itemPageRouter(deps, pages));
  router.use(productPagesRouter(deps, pages));
  router.use(boardPageRouter(deps, pages));
  return router;
}
