/** get_item, list_replies and resolve_item: reading one item. */
import { z } from 'zod';
import { NotFound } from '../../../../commands/shared/errors.js';
import { findItem, getItem, itemJson, resolveItem } from '../../../../projections/items/index.js';
import { RawJson } from '../../../http/registry.js';
import { listReplies } from '../../../../projections/replies/queries.js';
import { Item, ItemParams, Participant, Reply, Slug } from '../schemas.js';
import { defineFeedbackOp, type FeedbackHttpDeps, type FeedbackOperation } from '../types.js';
import { itemNotFound } from '../../actions/index.js';
import { workspaceOf } from './shared.js';

const ITEM_KEY = /^[A-Z]{3,5}-[1-9]\d*$/;

export function readItemOperations(deps: FeedbackHttpDeps): FeedbackOperation[] {
  const getItemOp = defineFeedbackOp({
    id: 'get_item',
    method: 'get',
    path: '/v1/workspaces/{slug}/products/{key}/items/{itemKey}',
    summary: 'Get an item with its whole reply thread and its participants',
    tags: ['Items'],
    params: ItemParams,
    response: z.object({
      item: Item,
      replies: z.array(Reply),
      participants: z.array(Participant),
    }),
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription:
      'An item merged into another still answers here (read-only), so old links work.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { key, itemKey } = ctx.params;
      const found = await getItem(deps.readStore, { workspaceId, productKey: key, itemKey });
      if (!found) throw itemNotFound(key, itemKey);
      const { doc, replies, participants } = found;
      // the item's text is serialized once per stored version (projections/items/document.ts)
      const json = `{"item":${itemJson(doc)},"replies":${JSON.stringify(replies)},"participants":${JSON.stringify(participants)}}`;
      return { body: new RawJson(json) };
    },
  });

  const listRepliesOp = defineFeedbackOp({
    id: 'list_replies',
    method: 'get',
    path: '/v1/workspaces/{slug}/products/{key}/items/{itemKey}/replies',
    summary: 'List the replies on an item, oldest first',
    tags: ['Items'],
    params: ItemParams,
    response: z.object({
      items: z.array(Reply),
      nextCursor: z
        .null()
        .meta({ description: 'always null: the whole thread is in one response' }),
    }),
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription: 'The whole thread in the order it was written.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { key, itemKey } = ctx.params;
      const doc = await findItem(deps.readStore, { workspaceId, itemKey });
      if (!doc || doc.productId !== key) throw itemNotFound(key, itemKey);
      return {
        body: {
          items: await listReplies(deps.readStore, { workspaceId, itemKey }),
          nextCursor: null,
        },
      };
    },
  });

  const resolveItemOp = defineFeedbackOp({
    id: 'resolve_item',
    method: 'get',
    path: '/v1/items/{itemKey}',
    summary: 'Find an item by its key in every workspace the caller belongs to',
    tags: ['Items'],
    // The spec declares no 400 for resolve_item: a key of another shape cannot name an item,
    // so it answers 404 like an unknown key (the format is stated in the description).
    params: z.object({
      itemKey: z.string().min(1).meta({
        description: 'item key, `^[A-Z]{3,5}-[1-9]\\d*$`; any other value matches nothing',
      }),
    }),
    response: z.object({
      matches: z
        .array(z.object({ slug: Slug, item: Item }))
        .min(1)
        .meta({
          description: 'several only when two of the caller’s workspaces share a product key',
        }),
    }),
    errors: [401, 403, 404],
    auth: 'bearer',
    meta: {},
    extraDescription:
      'Searches every workspace the caller is a member of now; matches are ordered by slug; 404 when none has it.',
    async handler(ctx) {
      const { itemKey } = ctx.params;
      const found = ITEM_KEY.test(itemKey)
        ? await resolveItem(deps.readStore, {
            userId: ctx.principal.userId,
            itemKey,
            // an integration credential reaches its own workspace only
            workspaceId: ctx.principal.integration?.workspaceId,
          })
        : [];
      if (found.length === 0) throw new NotFound('item not found');
      const matches = found
        .map(({ slug, item }) => ({ slug, item }))
        .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
      return { body: { matches } };
    },
  });

  return [getItemOp, listRepliesOp, resolveItemOp];
}
