/**
 * The board's pages (issue 12 item 1), server-rendered from the read models:
 *   /{slug}/{key}                      the board (board-page.tsx)
 *   /{slug}/{key}/items/{itemKey}      an item and its thread (item-page.tsx)
 *   /{slug}/{key}/roadmap, /changelog, /changelog.atom (product-pages.tsx)
 *   /{slug}/{key}/suggest?q=           JSON suggestions while a title is typed (board-page.tsx)
 * A private or unknown product answers the same 404 page; answers are cached as page-answer.ts
 * says.
 */
import type { Router } from 'express';
import { mountBoardPage } from './board-page.js';
import type { BoardDeps } from './context.js';
import { mountItemPage } from './item-page.js';
import { createPageAnswers } from './page-answer.js';
import { mountProductPages } from './product-pages.js';

/** The board page first: it is most of the traffic, and each route walked costs a match. */
export function mountPages(router: Router, deps: BoardDeps): void {
  const pages = createPageAnswers(deps);
  mountBoardPage(router, deps, pages);
  mountItemPage(router, deps, pages);
  mountProductPages(router, deps, pages);
}
