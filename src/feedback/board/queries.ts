/**
 * What the board pages read: the public product at an address, and the board's list of items —
 * sorted by top (+1s), new, or trending (activity over age, derived at read time like every
 * value that depends on "now"), filtered by status, or found by search (the search_items
 * ranking), a page at a time.
 */
import type { ItemStatus } from '../../../commands/item/index.js';
import { type ItemDoc, itemsOf } from '../../../projections/items/document.js';
import { itemsFilter } from '../../../projections/items/queries.js';
import { getProduct } from '../../../projections/products/queries.js';
import { workspaceBySlug } from '../../../projections/workspaces/queries.js';
import type { ReadStore, Sort } from '../../readstore/types.js';
import { ProductKey, Slug } from '../http/schemas.js';
import { searchItemDocs } from '../search/queries.js';
import type { FeedbackSearch } from '../search/search.js';
import type { BoardSort } from './views/board.js';

export const BOARD_PAGE_SIZE = 50;
/**
 * The last page the board reads (half a million items in): a page number beyond it is a page
 * past the last one, answered as such without skipping that far through the read models.
 */
export const BOARD_MAX_PAGE = 10_000;
/** a search pages through at most this many of the closest items (four pages) */
export const BOARD_SEARCH_MAX = 4 * BOARD_PAGE_SIZE;

export interface PublicProduct {
  workspaceId: string;
  slug: string;
  key: string;
  name: string;
  /** the workspace's name: who publishes the board (the changelog feed's author) */
  workspaceName: string;
  createdAt: number;
  /** `<workspaceId>.<KEY>`: the product's bucket and form scope */
  scope: string;
}

/** `/<slug>/<key>` can name a board (else the path is left to the app's fallback). */
export const isBoardAddress = (slug: string, key: string): boolean =>
  Slug.safeParse(slug).success && ProductKey.safeParse(key).success;

/** The product at `/<slug>/<key>` when it is public; null for unknown and private alike. */
export async function publicProduct(
  store: ReadStore,
  slug: string,
  key: string,
): Promise<PublicProduct | null> {
  return (await productAt(store, slug, key)).product;
}

/**
 * The public product at an address, and the workspace of the address's slug when one has it:
 * what the answer depends on (product-lookup.ts).
 */
export async function productAt(
  store: ReadStore,
  slug: string,
  key: string,
): Promise<{ workspaceId: string | null; product: PublicProduct | null }> {
  if (!isBoardAddress(slug, key)) return { workspaceId: null, product: null };
  const workspace = await workspaceBySlug(store, slug);
  if (!workspace) return { workspaceId: null, product: null };
  const { workspaceId } = workspace;
  const product = await getProduct(store, { workspaceId, key });
  if (product?.visibility !== 'public') return { workspaceId, product: null };
  return {
    workspaceId,
    product: {
      workspaceId,
      slug,
      key,
      name: product.name,
      workspaceName: workspace.name,
      createdAt: product.createdAt,
      scope: `${workspaceId}.${key}`,
    },
  };
}

export interface BoardQuery {
  sort: BoardSort;
  status: ItemStatus | null;
  q: string;
  page: number;
}

/**
 * Trending: activity (+1s, replies, the item itself) over age, with gravity — an item with a
 * few fresh +1s outranks an old one with many. Hours since capture; the +2 keeps new items from
 * dividing by nothing.
 */
export function trendingScore(
  doc: Pick<ItemDoc, 'plusOneCount' | 'replyCount' | 'createdAt'>,
  now: number,
): number {
  const hours = Math.max(0, now - doc.createdAt) / 3_600_000;
  return (doc.plusOneCount + doc.replyCount / 2 + 1) / (hours + 2) ** 1.5;
}

/**
 * Trending is ranked as of the start of its period, so its order changes with time at most once
 * a period: a page cached for everyone holds for that period (board-page.tsx), and no longer.
 */
const TRENDING_PERIOD_MS = 10 * 60_000;

/** The period `now` falls in (0, 1, 2, …): equal periods, equal trending order. */
export function trendingPeriod(now: number): number {
  return Math.floor(now / TRENDING_PERIOD_MS);
}

export async function boardItems(
  store: ReadStore,
  search: FeedbackSearch,
  product: PublicProduct,
  query: BoardQuery,
  now: number,
): Promise<{ docs: ItemDoc[]; hasNext: boolean }> {
  if (query.page > BOARD_MAX_PAGE) return { docs: [], hasNext: false };
  const listed = await pageOfItems(store, search, product, query, now);
  // no link to a page the board would not read
  return { ...listed, hasNext: listed.hasNext && query.page < BOARD_MAX_PAGE };
}

async function pageOfItems(
  store: ReadStore,
  search: FeedbackSearch,
  product: PublicProduct,
  query: BoardQuery,
  now: number,
): Promise<{ docs: ItemDoc[]; hasNext: boolean }> {
  const { workspaceId, key: productKey } = product;
  const status = query.status ?? undefined;
  const skip = (query.page - 1) * BOARD_PAGE_SIZE;
  if (query.q) {
    // one ranking for every page: a ranking cut at another length may order near-equal items
    // otherwise, and an item would show on two pages; weak matches are left out, as
    // summarize_feedback's `q` leaves them out
    const found =
      skip >= BOARD_SEARCH_MAX
        ? []
        : await searchItemDocs(store, search, {
            workspaceId,
            productKey,
            q: query.q,
            limit: BOARD_SEARCH_MAX,
            minScore: await search.matchThreshold(),
            ...(status ? { status } : {}),
          });
    return {
      docs: found.slice(skip, skip + BOARD_PAGE_SIZE).map((hit) => hit.doc),
      hasNext: found.length > skip + BOARD_PAGE_SIZE,
    };
  }
  const filter = itemsFilter(workspaceId, productKey, status ? { status } : {});
  if (query.sort === 'trending') {
    const all = await itemsOf(store).find(filter);
    const ranked = all
      .map((doc) => ({ doc, score: trendingScore(doc, trendingPeriod(now) * TRENDING_PERIOD_MS) }))
      .sort((a, b) => b.score - a.score || (a.doc.rank < b.doc.rank ? -1 : 1));
    return {
      docs: ranked.slice(skip, skip + BOARD_PAGE_SIZE).map((r) => r.doc),
      hasNext: ranked.length > skip + BOARD_PAGE_SIZE,
    };
  }
  const sort: Sort = query.sort === 'top' ? { plusOneCount: -1, rank: 1 } : { rank: 1 };
  const docs = await itemsOf(store).find(filter, { sort, skip, limit: BOARD_PAGE_SIZE + 1 });
  return { docs: docs.slice(0, BOARD_PAGE_SIZE), hasNext: docs.length > BOARD_PAGE_SIZE };
}
