/**
 * summarize_feedback: exact counts and a slice of a product's feedback. Spec "Synthesis": "The
 * service runs no summarization; it returns a slice of feedback plus exact counts."
 *
 * The set summarized is the one list_items returns for the same `status` and `tag` (the same
 * read-store filter, itemsFilter). With `q`, it is narrowed to the items whose semantic score
 * against `q` is at least the match threshold (search.ts; 0.40 on the bundled encoder) — all of
 * them, not a top-k — so `count`, `byStatus` and `byTag` count exactly that set. Items written
 * in the last moment and not yet embedded (see search.ts for the delay) are not in it yet.
 *
 *  - count: how many items are in the set;
 *  - byStatus: every status, with 0 for those absent;
 *  - byTag: every tag id on an item of the set, with how many items carry it;
 *  - topItems: up to 10 items of the set with at least one +1, most +1s first (ties: newest);
 *  - items: the first `limit` items of the set (default 50, list_items' page size): in
 *    list_items order (newest first) without `q`, closest first with it.
 */
import type { ItemStatus } from '../../../commands/item/index.js';
import { type Item, type ItemDoc, itemsOf, toItem } from '../../../projections/items/document.js';
import { itemsFilter } from '../../../projections/items/queries.js';
import type { Filter, ReadStore } from '../../readstore/types.js';
import { itemsMatching } from '../search/queries.js';
import type { FeedbackSearch } from '../search/search.js';

export const SUMMARY_DEFAULT_LIMIT = 50;
export const TOP_ITEMS = 10;
const STATUSES: readonly ItemStatus[] = ['new', 'planned', 'in-progress', 'shipped', 'declined'];

export interface FeedbackSummary {
  count: number;
  byStatus: Record<string, number>;
  byTag: Record<string, number>;
  topItems: { id: string; title: string; status: ItemStatus; plusOneCount: number }[];
  items: Item[];
}

export interface SummaryQuery {
  workspaceId: string;
  productKey: string;
  status?: ItemStatus;
  tag?: string;
  q?: string;
  limit: number;
}

export async function summarizeFeedback(
  store: ReadStore,
  search: FeedbackSearch,
  query: SummaryQuery,
): Promise<FeedbackSummary> {
  const { workspaceId, productKey, status, tag, q, limit } = query;
  const filters = { status, tag };
  const filter: Filter = itemsFilter(workspaceId, productKey, filters);
  let scores: Map<string, number> | undefined;
  if (q !== undefined) {
    scores = await itemsMatching(store, search, { workspaceId, productKey, q, ...filters });
    filter._id = { $in: [...scores.keys()] };
  }
  const items = itemsOf(store);
  const [count, statusRows, tagRows, top, slice] = await Promise.all([
    items.countDocuments(filter),
    items.aggregate<{ _id: ItemStatus; n: number }>([
      { $match: filter },
      { $group: { _id: '$status', n: { $sum: 1 } } },
    ]),
    items.aggregate<{ _id: string; n: number }>([
      { $match: filter },
      { $unwind: '$tagIds' },
      { $group: { _id: '$tagIds', n: { $sum: 1 } } },
    ]),
    items.find(
      { ...filter, plusOneCount: { $gt: 0 } },
      { sort: { plusOneCount: -1, rank: 1 }, limit: TOP_ITEMS },
    ),
    sliceOf(items, filter, scores, limit),
  ]);
  const byStatus: Record<string, number> = Object.fromEntries(STATUSES.map((s) => [s, 0]));
  for (const row of statusRows) byStatus[row._id] = row.n;
  // fromEntries defines each key, so a tag named `__proto__` is counted like any other
  const byTag: Record<string, number> = Object.fromEntries(
    [...tagRows]
      .sort((a, b) => b.n - a.n || a._id.localeCompare(b._id))
      .map((row) => [row._id, row.n]),
  );
  return {
    count,
    byStatus,
    byTag,
    topItems: top.map(({ id, title, status, plusOneCount }) => ({
      id,
      title,
      status,
      plusOneCount,
    })),
    items: slice.map(toItem),
  };
}

async function sliceOf(
  items: ReturnType<typeof itemsOf>,
  filter: Filter,
  scores: Map<string, number> | undefined,
  limit: number,
): Promise<ItemDoc[]> {
  if (!scores) return items.find(filter, { sort: { rank: 1 }, limit });
  const closest = [...scores.entries()]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, limit)
    .map(([id]) => id);
  const docs = await items.find({ ...filter, _id: { $in: closest } });
  const byId = new Map(docs.map((d) => [d._id, d]));
  return closest.flatMap((id) => byId.get(id) ?? []);
}
