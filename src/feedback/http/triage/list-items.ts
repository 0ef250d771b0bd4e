/**
 * list_items: keyset paging over the items' rank. The cursor wraps the rank of the last item
 * handed out (projections/items/queries.ts `nextAfter`), signed and bound to this product's
 * listing and its filters, so it is opaque, survives items arriving or changing during a walk,
 * and an edited or foreign cursor is a 400 — also one sent with other filters, which would walk
 * a different list from the middle and silently skip items.
 */
import { z } from 'zod';
import { NotFound } from '../../../../commands/shared/errors.js';
import { itemJson, listItems } from '../../../../projections/items/index.js';
import { getProduct } from '../../../../projections/products/index.js';
import { cursorParam, howToPage, pageOf, pageSizeParam, RawJson } from '../../../http/registry.js';
import { Item, ItemStatus, PersonId, ProductParams } from '../schemas.js';
import { defineFeedbackOp, type FeedbackHttpDeps, type FeedbackOperation } from '../types.js';
import { workspaceOf } from './shared.js';

const CursorPayload = z.object({ after: z.string().min(1) });

export function listItemsOperation(deps: FeedbackHttpDeps): FeedbackOperation {
  return defineFeedbackOp({
    id: 'list_items',
    method: 'get',
    path: '/v1/workspaces/{slug}/products/{key}/items',
    summary: 'List the items of a product, newest first',
    tags: ['Items'],
    params: ProductParams,
    query: z.object({
      status: ItemStatus.optional(),
      tag: z.string().min(1).optional().meta({ description: 'only items carrying this tag id' }),
      personId: PersonId.optional().meta({
        description:
          "only items this person submitted, +1ed or replied to: a person's id, as list_people and search_people answer it",
      }),
      cursor: cursorParam(),
      pageSize: pageSizeParam({ max: 200, default: 50 }),
    }),
    response: pageOf(Item),
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription:
      `${howToPage('`status`, `tag` and `personId`')} ` +
      'Items merged into another item are not listed. The cursor is opaque and ' +
      'stable: walking to the end returns every item that existed when the walk began exactly ' +
      'once, even while new items arrive. It belongs to the filters it was issued with: sent with other filters, or edited, it answers 400.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { key } = ctx.params;
      const { cursor, pageSize, ...filters } = ctx.query;
      const { status, tag, personId } = filters;
      const scope = `items:${workspaceId}/${key}:${JSON.stringify([status, tag, personId])}`;
      // the cursor is checked first: a bad one is the client's mistake whatever else is wrong
      const after = cursor ? deps.cursors.decodeAs(cursor, CursorPayload, { scope }).after : null;
      if (!(await getProduct(deps.readStore, { workspaceId, key }))) {
        throw new NotFound('product not found');
      }
      const page = await listItems(deps.readStore, {
        workspaceId,
        productKey: key,
        ...filters,
        after,
        limit: pageSize,
      });
      const nextCursor = page.nextAfter
        ? deps.cursors.encode({ after: page.nextAfter }, { scope })
        : null;
      // each item's text is serialized once per stored version (projections/items/document.ts)
      const items = page.items.map(itemJson).join(',');
      return {
        body: new RawJson(`{"items":[${items}],"nextCursor":${JSON.stringify(nextCursor)}}`),
      };
    },
  });
}
