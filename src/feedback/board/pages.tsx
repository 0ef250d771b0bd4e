/**
 * The board's pages (issue 12 item 1), server-rendered from the read models:
 *   /{slug}/{key}                      the board (capture box, items; sort, status, search, pages)
 *   /{slug}/{key}/items/{itemKey}      an item and its thread (a merged item redirects to its survivor)
 *   /{slug}/{key}/roadmap              planned, in progress, shipped
 *   /{slug}/{key}/changelog(.atom)     published entries, and their Atom feed
 *   /{slug}/{key}/suggest?q=           JSON: the closest items while a title is typed (board.js)
 * A private or unknown product answers the same 404 page. Pages are the same for every visitor
 * without a cookie, so they are cached per read-model version with a weak ETag (conditional GETs
 * answer 304); a visitor with a cookie sees their own +1s and gets a private answer.
 */
import type { NextFunction, Request, Response } from 'express';
import { Router } from 'express';
import type { ItemStatus } from '../../../commands/item/index.js';
import { NotFound } from '../../../commands/shared/errors.js';
import { changelogPage } from '../../../projections/changelog/queries.js';
import { findItem } from '../../../projections/items/queries.js';
import { listReplies } from '../../../projections/replies/queries.js';
import { roadmapOf } from '../../../projections/roadmap/queries.js';
import { personIdFor } from '../actions/index.js';
import { searchItems } from '../search/queries.js';
import { changelogAtom } from './atom.js';
import { type BoardDeps, cookieVisitor, requesterOf } from './context.js';
import { navOf } from './nav.js';
import { createPageCache, fill, TOKEN_SLOT } from './page-cache.js';
import {
  boardItems,
  type BoardQuery,
  isBoardAddress,
  type PublicProduct,
  publicProduct,
} from './queries.js';
import { answerError, sendPage } from './respond.js';
import type { Visitor } from './tokens.js';
import { BoardPage, type BoardSort } from './views/board.js';
import { ChangelogPage } from './views/changelog.js';
import { ItemPage } from './views/item.js';
import { documentOf } from './views/layout.js';
import { STATUS_LABEL } from './views/parts.js';
import { RoadmapPage } from './views/roadmap.js';

const SORTS: BoardSort[] = ['top', 'new', 'trending'];
const ITEM_KEY = /^[A-Z]{3,5}-[1-9]\d{0,15}$/;
const CHANGELOG_PAGE = 20;
const text = (v: unknown, max: number) => (typeof v === 'string' ? v.trim().slice(0, max) : '');

export function boardQueryOf(query: Request['query']): BoardQuery {
  const sort = SORTS.find((s) => s === query.sort) ?? 'top';
  const status = text(query.status, 20);
  const page = Number.parseInt(text(query.page, 6), 10);
  return {
    sort,
    status: status in STATUS_LABEL ? (status as ItemStatus) : null,
    q: text(query.q, 500),
    page: Number.isFinite(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

interface View {
  product: PublicProduct;
  visitor: Visitor | null;
  version: string | null;
}

export function pageRouter(deps: BoardDeps): Router {
  const router = Router();
  const cache = createPageCache();
  const personOf = (product: PublicProduct, visitor: Visitor | null) =>
    visitor
      ? personIdFor(product.workspaceId, requesterOf(visitor), { actor: null, now: 0 })
      : null;
  const authOf = (visitor: Visitor | null) => ({ csrf: visitor ? deps.tokens.csrf(visitor) : '' });

  /**
   * Answers a page: from the cache when it is the same for everyone (`shared`) and the read
   * models have a version, else freshly rendered. `render` gets the form token to embed.
   */
  async function answer(
    req: Request,
    res: Response,
    view: View,
    key: string,
    shared: boolean,
    render: (formToken: string) => Promise<string>,
    type = 'text/html; charset=utf-8',
  ): Promise<void> {
    const formToken = () => deps.tokens.form('board', view.product.scope);
    res.setHeader('Vary', 'Cookie');
    if (!shared || view.version === null) {
      res.setHeader('Cache-Control', 'private, no-cache');
      send(res, type, await render(formToken()));
      return;
    }
    // the day is in the tag so a page held by a browser never outlives its form token
    const etag = `W/"${view.version}.${Math.floor(deps.now() / 86_400_000)}"`;
    res.setHeader('Cache-Control', view.visitor ? 'private, no-cache' : 'no-cache');
    res.setHeader('ETag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    const page =
      cache.get(key, view.version) ?? cache.set(key, view.version, await render(TOKEN_SLOT));
    send(res, type, fill(page, formToken()));
  }

  function send(res: Response, type: string, body: string): void {
    if (type.startsWith('text/html')) {
      sendPage(res, 200, body);
      return;
    }
    res.setHeader('Content-Type', type);
    res.end(body);
  }

  const withProduct =
    (handler: (req: Request, res: Response, view: View) => Promise<void>) =>
    async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      const { slug, key } = req.params as { slug: string; key: string };
      if (!isBoardAddress(slug, key)) return next();
      let view: View | null = null;
      try {
        const product = await publicProduct(deps.readStore, slug, key);
        if (!product) throw new NotFound('no public product at this address');
        view = { product, visitor: cookieVisitor(deps, req), version: await deps.readVersion() };
        await handler(req, res, view);
      } catch (error) {
        answerError(deps, req, res, error, view ? navOf(deps, view.product, 'none') : null);
      }
    };

  router.get(
    '/:slug/:key',
    withProduct(async (req, res, view) => {
      const { product, visitor } = view;
      const query = boardQueryOf(req.query);
      const nav = navOf(deps, product, 'board');
      const key = `board:${product.scope}:${query.sort}:${query.status}:${query.page}`;
      await answer(req, res, view, key, !visitor && !query.q, async (formToken) => {
        const { docs, hasNext } = await boardItems(
          deps.readStore,
          deps.search,
          product,
          query,
          deps.now(),
        );
        const person = personOf(product, visitor);
        const auth = authOf(visitor);
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
            }))}
            capture={{
              action: `${deps.publicBaseUrl}/capture/${product.slug}/${product.key}`,
              auth,
              formToken,
              visitorEmail: visitor?.email ?? null,
              identityUrl: `${nav.boardUrl}/identity`,
              suggestUrl: `${nav.boardUrl}/suggest`,
            }}
          />,
        );
      });
    }),
  );

  router.get(
    '/:slug/:key/items/:itemKey',
    withProduct(async (req, res, view) => {
      const { product, visitor } = view;
      const itemKey = String(req.params.itemKey);
      if (!ITEM_KEY.test(itemKey) || !itemKey.startsWith(`${product.key}-`))
        throw new NotFound('item not found');
      const doc = await findItem(deps.readStore, { workspaceId: product.workspaceId, itemKey });
      if (!doc) throw new NotFound('item not found');
      const nav = navOf(deps, product, 'item');
      if (doc._mergedInto) {
        res.setHeader('Cache-Control', 'no-cache');
        res.redirect(302, `${nav.boardUrl}/items/${doc._mergedInto}`);
        return;
      }
      await answer(req, res, view, `item:${product.scope}:${itemKey}`, !visitor, async () => {
        const replies = await listReplies(deps.readStore, {
          workspaceId: product.workspaceId,
          itemKey,
        });
        const person = personOf(product, visitor);
        return documentOf(
          <ItemPage
            nav={nav}
            item={doc}
            url={`${nav.boardUrl}/items/${itemKey}`}
            replies={replies}
            plusOned={person !== null && doc._plusOnes.includes(person)}
            auth={authOf(visitor)}
          />,
        );
      });
    }),
  );

  router.get(
    '/:slug/:key/roadmap',
    withProduct(async (req, res, view) => {
      const { product } = view;
      const nav = navOf(deps, product, 'roadmap');
      await answer(req, res, view, `roadmap:${product.scope}`, true, async () => {
        const columns = await roadmapOf(deps.readStore, {
          workspaceId: product.workspaceId,
          productKey: product.key,
        });
        const entries = (status: keyof typeof columns) =>
          columns[status].map((e) => ({
            key: e.id,
            title: e.title,
            plusOneCount: e.plusOneCount,
            url: `${nav.boardUrl}/items/${e.id}`,
          }));
        return documentOf(
          <RoadmapPage
            nav={nav}
            columns={{
              planned: entries('planned'),
              'in-progress': entries('in-progress'),
              shipped: entries('shipped'),
            }}
          />,
        );
      });
    }),
  );

  router.get(
    '/:slug/:key/changelog',
    withProduct(async (req, res, view) => {
      const { product } = view;
      const nav = navOf(deps, product, 'changelog');
      const after = markOf(req.query.after);
      const key = `changelog:${product.scope}:${after ? `${after.publishedAt}.${after.id}` : ''}`;
      await answer(req, res, view, key, true, async () => {
        const { entries, next } = await changelogPage(deps.readStore, {
          workspaceId: product.workspaceId,
          productKey: product.key,
          after,
          limit: CHANGELOG_PAGE,
        });
        const nextUrl = next
          ? `${nav.boardUrl}/changelog?after=${encodeURIComponent(`${next.publishedAt}.${next.id}`)}`
          : null;
        return documentOf(
          <ChangelogPage
            nav={nav}
            entries={entries}
            itemUrl={(k) => `${nav.boardUrl}/items/${k}`}
            nextUrl={nextUrl}
          />,
        );
      });
    }),
  );

  router.get(
    '/:slug/:key/changelog.atom',
    withProduct(async (req, res, view) => {
      const { product } = view;
      const boardUrl = navOf(deps, product, 'changelog').boardUrl;
      const render = async () => {
        const { entries } = await changelogPage(deps.readStore, {
          workspaceId: product.workspaceId,
          productKey: product.key,
          limit: 50,
        });
        return changelogAtom({ productName: product.name, boardUrl, entries });
      };
      await answer(
        req,
        res,
        view,
        `atom:${product.scope}`,
        true,
        render,
        'application/atom+xml; charset=utf-8',
      );
    }),
  );

  router.get(
    '/:slug/:key/suggest',
    withProduct(async (req, res, view) => {
      const { product } = view;
      const q = text(req.query.q, 200);
      res.setHeader('Cache-Control', 'no-store');
      if (q.length < 3) {
        res.json({ items: [] });
        return;
      }
      const [hits, threshold] = await Promise.all([
        searchItems(deps.readStore, deps.search, {
          workspaceId: product.workspaceId,
          productKey: product.key,
          q,
          limit: 5,
        }),
        deps.search.matchThreshold(),
      ]);
      const boardUrl = navOf(deps, product, 'board').boardUrl;
      res.json({
        items: hits
          .filter((h) => h.score >= threshold)
          .map(({ item }) => ({
            key: item.id,
            title: item.title,
            status: item.status,
            plusOneCount: item.plusOneCount,
            url: `${boardUrl}/items/${item.id}`,
          })),
      });
    }),
  );
  return router;
}

/** `?after=<publishedAt>.<entry id>`; anything else is the first page */
function markOf(value: unknown): { publishedAt: number; id: string } | null {
  const raw = text(value, 200);
  const dot = raw.indexOf('.');
  if (dot < 1) return null;
  const publishedAt = Number(raw.slice(0, dot));
  const id = raw.slice(dot + 1);
  return Number.isSafeInteger(publishedAt) && id ? { publishedAt, id } : null;
}
