/**
 * search_items, search_people and the `q` of summarize_feedback, over the vector indexes.
 * Scores are in [0, 1], higher is closer (cosine similarity floored at 0). Hits are always
 * re-read from the items / people read models, so a merged item or a stale vector never shows.
 */
import { type Item, type ItemDoc, itemsOf, toItem } from '../../../projections/items/document.js';
import { type ItemFilters, itemsFilter } from '../../../projections/items/queries.js';
import { peopleOf } from '../../../projections/people/projector.js';
import { type PersonSummary, toPersonSummary } from '../../../projections/people/queries.js';
import type { ReadStore } from '../../readstore/types.js';
import type { FeedbackSearch } from './search.js';
import { itemVectorPrefix } from './texts.js';

/** How many items a people search looks at to find who raised a topic. */
const TOPIC_ITEMS = 100;
/** Who raised a topic first: the submitter, then repliers, then +1s. */
const ROLE_RANK: Record<string, number> = { submitted: 0, replied: 1, 'plus-one': 2 };

async function allowedIds(
  store: ReadStore,
  workspaceId: string,
  productKey: string,
  filters: ItemFilters,
): Promise<Set<string> | ((id: string) => boolean)> {
  if (!filters.status && !filters.tag && !filters.personId) {
    const prefix = itemVectorPrefix(workspaceId, productKey);
    return (id: string) => id.startsWith(prefix);
  }
  const docs = await itemsOf(store).find(itemsFilter(workspaceId, productKey, filters), {
    projection: { _id: 1 },
  });
  return new Set(docs.map((d) => d._id));
}

/**
 * The `limit` closest listed items of the product (optionally of one status) as their stored
 * documents, best first; with `minScore`, only those scoring at least that (the public board
 * leaves weak matches out).
 */
export async function searchItemDocs(
  store: ReadStore,
  search: FeedbackSearch,
  query: {
    workspaceId: string;
    productKey: string;
    q: string;
    limit: number;
    minScore?: number;
  } & ItemFilters,
): Promise<{ doc: ItemDoc; score: number }[]> {
  const { workspaceId, productKey, q, limit, minScore } = query;
  const allow = await allowedIds(store, workspaceId, productKey, query);
  const hits = await search.searchItems(store, { workspaceId, q, limit, allow, minScore });
  const docs = await itemsOf(store).find({
    ...itemsFilter(workspaceId, productKey, query),
    _id: { $in: hits.map((h) => h.id) },
  });
  const byId = new Map(docs.map((d) => [d._id, d]));
  return hits.flatMap((hit) => {
    const doc = byId.get(hit.id);
    return doc ? [{ doc, score: hit.score }] : [];
  });
}

/** search_items: the `limit` closest listed items of the product (optionally of one status). */
export async function searchItems(
  store: ReadStore,
  search: FeedbackSearch,
  query: { workspaceId: string; productKey: string; q: string; limit: number } & ItemFilters,
): Promise<{ item: Item; score: number }[]> {
  const found = await searchItemDocs(store, search, query);
  return found.map(({ doc, score }) => ({ item: toItem(doc), score }));
}

/**
 * summarize_feedback's `q`: the listed items of the product matching the filters whose score
 * against `q` is at least the match threshold — every one of them, not a top-k — with scores.
 */
export async function itemsMatching(
  store: ReadStore,
  search: FeedbackSearch,
  query: { workspaceId: string; productKey: string; q: string } & ItemFilters,
): Promise<Map<string, number>> {
  const { workspaceId, productKey, q } = query;
  const allow = await allowedIds(store, workspaceId, productKey, query);
  const size =
    allow instanceof Set
      ? allow.size
      : await itemsOf(store).countDocuments(itemsFilter(workspaceId, productKey, query));
  if (size === 0) return new Map();
  const minScore = await search.matchThreshold();
  const hits = await search.searchItems(store, { workspaceId, q, limit: size, allow, minScore });
  return new Map(hits.map((h) => [h.id, h.score]));
}

/**
 * search_people: a person's score is the best of (a) their name and e-mail against `q` and (b)
 * the topics they raised — the items they submitted, +1'd or replied to — against `q`.
 * Ties go to who raised the topic first (submitter, replier, +1), then to the person id.
 */
export async function searchPeople(
  store: ReadStore,
  search: FeedbackSearch,
  query: { workspaceId: string; q: string; limit: number },
): Promise<{ person: PersonSummary; score: number }[]> {
  const { workspaceId, q, limit } = query;
  const wsPrefix = `${workspaceId}.`;
  const [byText, byTopic] = await Promise.all([
    search.searchPersonTexts(store, { workspaceId, q, limit }),
    search.searchItems(store, {
      workspaceId,
      q,
      limit: TOPIC_ITEMS,
      allow: (id) => id.startsWith(wsPrefix),
    }),
  ]);
  const best = new Map<string, { score: number; rank: number }>();
  const offer = (personId: string, score: number, rank: number) => {
    const seen = best.get(personId);
    if (!seen || score > seen.score || (score === seen.score && rank < seen.rank))
      best.set(personId, { score, rank });
  };
  for (const hit of byText) offer(hit.id, hit.score, 0);
  if (byTopic.length) {
    const topicScore = new Map(byTopic.map((h) => [h.id, h.score]));
    const items = await itemsOf(store).find(
      { _id: { $in: [...topicScore.keys()] }, _mergedInto: null },
      { projection: { _id: 1, _participants: 1 } },
    );
    for (const item of items) {
      const score = topicScore.get(item._id) ?? 0;
      for (const p of item._participants) offer(p.personId, score, ROLE_RANK[p.role] ?? 3);
    }
  }
  const ranked = [...best.entries()]
    .sort(([a, x], [b, y]) => y.score - x.score || x.rank - y.rank || a.localeCompare(b))
    .slice(0, limit * 2);
  const people = await peopleOf(store).find({
    _id: { $in: ranked.map(([id]) => id) },
    _ws: workspaceId,
  });
  const byId = new Map(people.map((p) => [p._id, p]));
  return ranked
    .flatMap(([id, { score }]) => {
      const doc = byId.get(id);
      return doc ? [{ person: toPersonSummary(doc), score }] : [];
    })
    .slice(0, limit);
}
