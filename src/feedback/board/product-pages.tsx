/**
 * The roadmap, the changelog and its Atom feed (issue 12 item 1): the same for every visitor,
 * so always answered from the cache while the product stays the same (versions.ts).
 */
import type { Router } from 'express';
import { changelogPage } from '../../../projections/changelog/queries.js';
import { itemTitles } from '../../../projections/items/queries.js';
import { roadmapOf } from '../../../projections/roadmap/queries.js';
import { changelogAtom } from './atom.js';
import { queryText } from './body.js';
import type { BoardDeps } from './context.js';
import { navOf } from './nav.js';
import type { PageAnswers } from './page-answer.js';
import { ChangelogPage } from './views/changelog.js';
import { documentOf } from './views/layout.js';
import { RoadmapPage } from './views/roadmap.js';

const CHANGELOG_PAGE = 20;

export function mountProductPages(router: Router, deps: BoardDeps, pages: PageAnswers): void {
  const { page } = pages;
  router.get(
    '/:slug/:key/roadmap',
    page(async (req, res, view) => {
      const { product } = view;
      const nav = navOf(deps, product, 'roadmap');
      await pages.answer(req, res, view, `roadmap:${product.scope}`, true, async () => {
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
    page(async (req, res, view) => {
      const { product } = view;
      const nav = navOf(deps, product, 'changelog');
      const after = markOf(req.query.after);
      const key = `changelog:${product.scope}:${after ? `${after.publishedAt}.${after.id}` : ''}`;
      await pages.answer(req, res, view, key, true, async () => {
        const { entries, next } = await changelogPage(deps.readStore, {
          workspaceId: product.workspaceId,
          productKey: product.key,
          after,
          limit: CHANGELOG_PAGE,
        });
        // the entries hold their items' keys only: their titles come from the items read model,
        // one read for the page, so each link names what it leads to
        const titles = await itemTitles(
          deps.readStore,
          product.workspaceId,
          entries.flatMap((entry) => entry.itemIds),
        );
        const nextUrl = next
          ? `${nav.boardUrl}/changelog?after=${encodeURIComponent(`${next.publishedAt}.${next.id}`)}`
          : null;
        return documentOf(
          <ChangelogPage
            nav={nav}
            entries={entries}
            itemUrl={(k) => `${nav.boardUrl}/items/${k}`}
            itemTitles={titles}
            nextUrl={nextUrl}
            newestUrl={after ? `${nav.boardUrl}/changelog` : null}
          />,
        );
      });
    }),
  );

  router.get(
    '/:slug/:key/changelog.atom',
    page(async (req, res, view) => {
      const { product } = view;
      const boardUrl = navOf(deps, product, 'changelog').boardUrl;
      const render = async () => {
        const { entries } = await changelogPage(deps.readStore, {
          workspaceId: product.workspaceId,
          productKey: product.key,
          limit: 50,
        });
        // as on the changelog page: the items' titles in one read for the feed's entries
        const titles = await itemTitles(
          deps.readStore,
          product.workspaceId,
          entries.flatMap((entry) => entry.itemIds),
        );
        return changelogAtom({
          productName: product.name,
          publisher: product.workspaceName,
          since: product.createdAt,
          boardUrl,
          entries,
          itemTitles: titles,
        });
      };
      await pages.answer(
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
}

/** `?after=<publishedAt>.<entry id>`; anything else is the first page */
function markOf(value: unknown): { publishedAt: number; id: string } | null {
  const raw = queryText(value, 200);
  const dot = raw.indexOf('.');
  if (dot < 1) return null;
  const publishedAt = Number(raw.slice(0, dot));
  const id = raw.slice(dot + 1);
  return Number.isSafeInteger(publishedAt) && id ? { publishedAt, id } : null;
}
