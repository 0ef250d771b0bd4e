/** update_item, update_item_status and tag_item: one command each on the item's stream. */
import { z } from 'zod';
import { itemDecider, itemStreamId } from '../../../../commands/item/index.js';
import { NotFound } from '../../../../commands/shared/errors.js';
import { itemDocId, itemsOf, toItem } from '../../../../projections/items/index.js';
import { getItem } from '../../../../projections/items/queries.js';
import type { ItemTimelines } from '../../activity/timeline.js';
import { tagItem, updateItem, updateItemStatus } from '../../actions/index.js';
import { Item, ItemParams, ItemStatus } from '../schemas.js';
import { defineFeedbackOp, type FeedbackHttpDeps, type FeedbackOperation } from '../types.js';
import { contextOf, REFUSED_AS_INVALID, workspaceOf } from './shared.js';

const DECLARED = [400, 401, 403, 404] as const;
const MERGED_NOTE =
  'An item merged into another is read-only: changing it answers 400 naming the survivor it lives on in — the last of its merges when the item it went into was merged in turn (`APP-1 was merged into APP-3 (through APP-2)`).';

export function itemEditOperations(
  deps: FeedbackHttpDeps & { timelines: ItemTimelines },
): FeedbackOperation[] {
  const updateItemOp = defineFeedbackOp({
    id: 'update_item',
    honoursIfMatch: 'commands',
    method: 'patch',
    path: '/v1/workspaces/{slug}/products/{key}/items/{itemKey}',
    summary: "Edit an item's title, body or status",
    tags: ['Triage'],
    params: ItemParams,
    body: z
      .object({
        title: z.string().min(1).max(500).optional(),
        body: z.string().min(1).max(50_000).optional(),
        status: ItemStatus.optional(),
      })
      .strict(),
    response: z.object({ item: Item }),
    errors: DECLARED,
    answerAs: REFUSED_AS_INVALID,
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription: `Partial: only the fields sent change; an empty object changes nothing and answers the item as it is. A title or body of only whitespace is refused (400). ${MERGED_NOTE}`,
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { key, itemKey } = ctx.params;
      const { position, revision } = await updateItem(deps, contextOf(deps, ctx), {
        workspaceId,
        productKey: key,
        itemKey,
        ...ctx.body,
      });
      return {
        position,
        async readBack() {
          const doc = await itemsOf(deps.readStore).findOne({
            _id: itemDocId(workspaceId, itemKey),
          });
          if (!doc) throw new NotFound('item not found');
          // read after the document: when the item's stream ends at this edit, the document
          // (which holds this edit) holds nothing later. The command handler's fold knows where
          // the stream ends (a tail read), not the history's timelines, which would read the
          // whole stream of any item outside their few cached ones on every edit
          const now = await deps.commandHandler.load(
            itemStreamId(workspaceId, itemKey),
            itemDecider,
          );
          if (now.revision === revision) return { body: { item: toItem(doc) } };
          // a later write may be in the read model (a reply, another edit), or this is a retry:
          // answer the item as this edit left it (or found it, when it changed nothing), rebuilt
          // like get_item_as_of, not with what other requests wrote since
          let item = toItem(doc);
          await deps.timelines.replay(workspaceId, itemKey, [revision], async (_r, store) => {
            const then = await getItem(store, { workspaceId, productKey: key, itemKey });
            if (then) item = then.item;
          });
          return { body: { item } };
        },
      };
    },
  });

  const updateItemStatusOp = defineFeedbackOp({
    id: 'update_item_status',
    honoursIfMatch: 'commands',
    method: 'post',
    destructive: true,
    idempotent: true,
    path: '/v1/workspaces/{slug}/products/{key}/items/{itemKey}/status',
    summary: "Change an item's status",
    tags: ['Triage'],
    params: ItemParams,
    body: z.object({ status: ItemStatus }).strict(),
    response: z.object({ status: ItemStatus, changed: z.boolean() }),
    errors: DECLARED,
    answerAs: REFUSED_AS_INVALID,
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription: `\`changed\` is false when the item already had that status; the call is safe to repeat. ${MERGED_NOTE}`,
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { key, itemKey } = ctx.params;
      const { status, changed, position } = await updateItemStatus(deps, contextOf(deps, ctx), {
        workspaceId,
        productKey: key,
        itemKey,
        status: ctx.body.status,
      });
      return { body: { status, changed }, position };
    },
  });

  const tagItemOp = defineFeedbackOp({
    id: 'tag_item',
    honoursIfMatch: 'commands',
    method: 'post',
    destructive: true,
    idempotent: true,
    path: '/v1/workspaces/{slug}/products/{key}/items/{itemKey}/tags',
    summary: "Replace an item's tags",
    tags: ['Triage'],
    params: ItemParams,
    body: z
      .object({
        tagIds: z.array(z.string().min(1).max(60)).max(20).meta({
          description: 'the whole new set (an empty array clears it); duplicates count once',
        }),
      })
      .strict(),
    response: z.object({ tagIds: z.array(z.string()) }),
    errors: DECLARED,
    answerAs: REFUSED_AS_INVALID,
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription: `Replaces the whole tag set; it never adds to it. ${MERGED_NOTE}`,
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { key, itemKey } = ctx.params;
      const { tagIds, position } = await tagItem(deps, contextOf(deps, ctx), {
        workspaceId,
        productKey: key,
        itemKey,
        tagIds: ctx.body.tagIds,
      });
      return { body: { tagIds }, position };
    },
  });

  return [updateItemOp, updateItemStatusOp, tagItemOp];
}
