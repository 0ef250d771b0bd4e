/** summarize_feedback and search_items (spec "Synthesis", "Read"). */
import { z } from 'zod';
import { limitParam, searchQueryParam } from '../../../http/registry.js';
import { SUMMARY_DEFAULT_LIMIT, summarizeFeedback, TOP_ITEMS } from '../../followup/summary.js';
import { searchItems } from '../../search/queries.js';
import type { FeedbackSearch } from '../../search/search.js';
import { ItemStatus, ProductParams } from '../schemas.js';
import { defineFeedbackOp, type FeedbackHttpDeps, type FeedbackOperation } from '../types.js';
import { FeedbackSummary, ItemSearchHit } from './schemas.js';
import { accessOf, requireProduct } from './shared.js';

export function synthesisOperations(
  deps: FeedbackHttpDeps,
  search: FeedbackSearch,
): FeedbackOperation[] {
  const summarize = defineFeedbackOp({
    id: 'summarize_feedback',
    throttled: 'searches',
    method: 'get',
    path: '/v1/workspaces/{slug}/products/{key}/summary',
    summary: "Exact counts and a slice of a product's feedback (no generated text)",
    tags: ['Synthesis'],
    params: ProductParams,
    query: z.object({
      status: ItemStatus.optional(),
      tag: z.string().min(1).optional().meta({ description: 'only items carrying this tag id' }),
      q: searchQueryParam(500)
        .optional()
        .meta({ description: 'only items that match this text by meaning (see below)' }),
      limit: limitParam({ max: 200, default: SUMMARY_DEFAULT_LIMIT }),
    }),
    response: FeedbackSummary,
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription: [
      'The service runs no summarization. The summarized set is exactly what list_items returns for the same `status` and `tag` (merged items excluded). With `q` it is narrowed to the items whose semantic score against `q` is at least the match threshold (0.40 on the bundled encoder, 0.30 on all-MiniLM-L6-v2) — every such item, not a top-k; items written in the last second may not be embedded yet.',
      `\`count\` is the size of the set; \`byStatus\` has every status (0 when absent); \`byTag\` counts the items of the set carrying each tag; \`topItems\` are up to ${TOP_ITEMS} items of the set with at least one +1, most first (ties: newest); \`items\` are the first \`limit\` (default ${SUMMARY_DEFAULT_LIMIT}) items of the set — newest first like list_items, or closest first with \`q\`.`,
    ].join('\n\n'),
    scope: (ctx) =>
      requireProduct(deps.readStore, accessOf(ctx.access).workspaceId, ctx.params.key),
    async handler(ctx) {
      const { workspaceId } = accessOf(ctx.access);
      const { key } = ctx.params;
      const body = await summarizeFeedback(deps.readStore, search, {
        workspaceId,
        productKey: key,
        ...ctx.query,
      });
      return { body };
    },
  });

  const searchItemsOp = defineFeedbackOp({
    id: 'search_items',
    throttled: 'searches',
    method: 'get',
    path: '/v1/workspaces/{slug}/products/{key}/items/search',
    summary: 'Find items of a product by meaning and by their words',
    tags: ['Items'],
    params: ProductParams,
    query: z.object({
      q: searchQueryParam(500),
      status: ItemStatus.optional(),
      limit: limitParam({ max: 50, default: 10 }),
    }),
    response: z.object({ hits: z.array(ItemSearchHit) }).strict(),
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription:
      'Hybrid ranking over each item\'s title and body: by meaning ("dark mode" finds "please add a night theme") and by its words (BM25 with English stemming, accent folding, a typo tolerated in longer words and the last word matched as a prefix), so an error code or a product term finds its item first. `score` is in [0, 1], higher is closer: 1 − (1 − semantic) · (1 − 0.7 · coverage³), where coverage is the share of the query\'s words the item holds. Best first; not paged. Items merged into another item are not returned. A new or edited item is found by its words as soon as its write has answered; by meaning once it is embedded in the background (about a second).',
    scope: (ctx) =>
      requireProduct(deps.readStore, accessOf(ctx.access).workspaceId, ctx.params.key),
    async handler(ctx) {
      const { workspaceId } = accessOf(ctx.access);
      const { key } = ctx.params;
      const hits = await searchItems(deps.readStore, search, {
        workspaceId,
        productKey: key,
        ...ctx.query,
      });
      return { body: { hits } };
    },
  });

  return [summarize, searchItemsOp];
}
