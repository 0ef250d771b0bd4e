/**
 * The board (issue 12 item 1): the capture box on top, then the items — sort (top, new,
 * trending), status filter, search by meaning and words, 50 a page — and the suggestions
 * board.js shows while a title is typed (the same search; weak matches left out).
 */
import type { Request, Router } from 'express';
import type { ItemStatus } from '../../../commands/item/index.js';
import { InvalidArgument } from '../../../commands/shared/errors.js';
import { characters, searchedText } from '../../../commands/shared/text.js';
import { searchItemDocs } from '../search/queries.js';
import { queryText } from './body.js';
import { holdsCurrent } from './conditional.js';
import { type BoardDeps, ipOf, personOfVisitor } from './context.js';
import { navOf } from './nav.js';
import type { PageAnswers } from './page-answer.js';
import {
  BOARD_MAX_PAGE,
  boardItems,
  type BoardQuery,
  type PublicProduct,
  trendingPeriod,
} from './queries.js';
import type { Visitor } from './tokens.js';
import { BoardPage, type BoardSort, boardSearch } from './views/board.js';
import { documentOf } from './views/layout.js';
import { type CaptureRefusal, STATUS_LABEL } from './views/parts.js';

const SORTS: BoardSort[] = ['top', 'new', 'trending'];

/** a search's length, as search_items allows it (spec: `q`, 1 to 500 characters) */
export const BOARD_QUERY_MAX = 500;

export function boardQueryOf(query: Request['query'] | Record<string, string>): BoardQuery {
  const sort = SORTS.find((s) => s === query.sort) ?? 'top';
  const status = queryText(query.status, 20);
  return {
    sort,
    status: Object.hasOwn(STATUS_LABEL, status) ? (status as ItemStatus) : null,
    q: searchedText(queryText(query.q, BOARD_QUERY_MAX)),
    page: pageOf(query.page),
  };
}

/**
 * `?page=`: what is not a page number means the first page, as an unknown sort or status means
 * the default; a page number past the last page the board reads is one past it, answered like
 * any page past the last ("No more items") — not the first page under another number.
 */
function pageOf(value: unknown): number {
  const page = Number.parseInt(queryText(value, 6), 10);
  if (!Number.isFinite(page) || page < 1) return 1;
  return Math.min(page, BOARD_MAX_PAGE + 1);
}

/**
 * Where the board's capture box posts: the capture endpoint, with the list it was on (its sort,
 * filter, search and page, nothing else) in its query string, so a refusal without JavaScript
 * shows that list again (capture-refusal.tsx) and the address bar then names it — opening that
 * address leads to the same list (form-addresses.ts), reloading sends the form again. The
 * endpoint reads nothing else from it; the widget posts to the bare address.
 */
function captureAction(deps: BoardDeps, product: PublicProduct, query: BoardQuery): string {
  const search = boardSearch(query);
  const endpoint = `${deps.publicBaseUrl}/capture/${product.slug}/${product.key}`;
  return search ? `${endpoint}?${search}` : endpoint;
}

/**
 * The board page for a visitor: the list of one query, and the capture box — empty, or with
 * what was typed and why it was refused (capture-refusal.tsx).
 */
export async function renderBoard(
  deps: BoardDeps,
  view: { product: PublicProduct; visitor: Visitor | null; now: number },
  query: BoardQuery,
  formToken: string,
  refusal?: CaptureRefusal,
): Promise<string> {
  const { product, visitor } = view;
  const nav = navOf(deps, product, 'board');
  const { docs, hasNext } = await boardItems(deps.readStore, deps.search, product, query, view.now);
  const person = await personOfVisitor(deps, product.workspaceId, visitor);
  const auth = { csrf: visitor ? deps.tokens.csrf(visitor) : '' };
  return documentOf(
    <BoardPage
      nav={nav}
      {...query}
      hasNext={hasNext}
      auth={auth}
      rows={docs.map((doc) => ({
        key: doc.id,
        title: doc.title,
        status: doc.status,
        plusOneCount: doc.plusOneCount,
        replyCount: doc.replyCount,
        url: `${nav.boardUrl}/items/${doc.id}`,
        plusOned: person !== null && doc._plusOnes.includes(person),
        own: person !== null && doc._submitterId === person,
      }))}
      capture={{
        action: captureAction(deps, product, query),
        auth,
        formToken,
        visitorEmail: visitor?.email ?? null,
        identityUrl: `${nav.boardUrl}/identity`,
        suggestUrl: `${nav.boardUrl}/suggest`,
        ...(refusal ? { refusal } : {}),
      }}
    />,
  );
}

/**
 * A search longer than search_items allows is refused as search_items refuses it (400), with the
 * board's page saying why: searching its first 500 characters instead showed results for a
 * query the visitor had not typed, and did not tell them. (The search box holds no more; only
 * an address made or edited by hand gets here.)
 */
function refuseLongSearch(value: unknown): void {
  if (typeof value !== 'string') return;
  const length = characters(value.trim());
  if (length > BOARD_QUERY_MAX) {
    throw new InvalidArgument(
      `The search must be at most ${BOARD_QUERY_MAX} characters long (this one has ${length}).`,
    );
  }
}

/**
 * A search that will not run spends none of the IP's searches, only checks one is left (a spent
 * bucket answers 429 as the search would): one answered 304 for its `If-None-Match: *` (a
 * search's answer has no tag, so only `*` matches, and matches whatever it would find: RFC 9110
 * §13.1.2), and a HEAD, answered with the GET's status and headers and no body (§9.3.2; Express
 * routes it through the GET's handler, which ran the search and charged it).
 */
function searchOf(deps: BoardDeps, req: Request): Promise<void> {
  const runs = req.method !== 'HEAD' && !holdsCurrent(req.headers['if-none-match'], undefined);
  return deps.guard.takeSearch(ipOf(deps, req), runs ? 'take' : 'peek');
}

export function mountBoardPage(router: Router, deps: BoardDeps, pages: PageAnswers): void {
  const { page } = pages;
  router.get(
    '/:slug/:key',
    page(async (req, res, view) => {
      const { product, visitor } = view;
      refuseLongSearch(req.query.q);
      const query = boardQueryOf(req.query);
      if (query.q) await searchOf(deps, req);
      const key = `board:${product.scope}:${query.sort}:${query.status}:${query.page}`;
      // trending moves with time too, not only with writes: cached (and tagged) per period
      const shown =
        query.sort === 'trending' && view.version !== null
          ? { ...view, version: `${view.version}.${trendingPeriod(view.now)}` }
          : view;
      await pages.answer(req, res, shown, key, !visitor && !query.q, (formToken) =>
        renderBoard(deps, shown, query, formToken),
      );
    }),
  );

  router.get(
    '/:slug/:key/suggest',
    page(async (req, res, view) => {
      const { product } = view;
      const q = searchedText(queryText(req.query.q, 200));
      res.setHeader('Cache-Control', 'no-store');
      if (q.length < 3) {
        res.json({ items: [] });
        return;
      }
      await searchOf(deps, req);
      if (holdsCurrent(req.headers['if-none-match'], undefined)) {
        res.status(304).end();
        return;
      }
      if (req.method === 'HEAD') {
        res.type('json').end();
        return;
      }
      const hits = await searchItemDocs(deps.readStore, deps.search, {
        workspaceId: product.workspaceId,
        productKey: product.key,
        q,
        limit: 5,
        minScore: await deps.search.matchThreshold(),
      });
      const boardUrl = navOf(deps, product, 'board').boardUrl;
      res.json({
        items: hits.map(({ doc }) => ({
          key: doc.id,
          title: doc.title,
          status: doc.status,
          // shown beside the title: a +1 asked for an item already shipped or declined misleads
          statusLabel: STATUS_LABEL[doc.status],
          plusOneCount: doc.plusOneCount,
          url: `${boardUrl}/items/${doc.id}`,
        })),
      });
    }),
  );
}
