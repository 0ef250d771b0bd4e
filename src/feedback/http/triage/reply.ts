/**
 * reply_to_item. Who the reply is from follows the credential (spec "Reply"): a personal API
 * token or an identity-provider ID token makes an ordinary `maker` reply under the user's name;
 * an OAuth access token makes an `agent` reply carrying the client's name.
 */
import { z } from 'zod';
import { itemDecider, itemStreamId } from '../../../../commands/item/index.js';
import { InvalidArgument } from '../../../../commands/shared/errors.js';
import { userById } from '../../../../projections/users/queries.js';
import { assertItemOfProduct, type ReplyAuthor, replyToItem } from '../../actions/index.js';
import { ItemParams } from '../schemas.js';
import {
  type Caller,
  defineFeedbackOp,
  type FeedbackHttpDeps,
  type FeedbackOperation,
} from '../types.js';
import { contextOf, REFUSED_AS_INVALID, workspaceOf } from './shared.js';

export function replyOperation(deps: FeedbackHttpDeps): FeedbackOperation {
  async function authorOf(caller: Caller): Promise<ReplyAuthor> {
    switch (caller.credential) {
      case 'oauth':
        return { kind: 'agent', id: caller.userId, name: caller.clientName ?? null, avatar: null };
      case 'integration':
        // spec: replies with a workspace integration credential are an agent's, under its name
        return {
          kind: 'agent',
          id: caller.userId,
          name: caller.integration?.name ?? null,
          avatar: null,
        };
      case 'pat':
      case 'id-token': {
        const user = await userById(deps.readStore, caller.userId);
        return { kind: 'maker', id: caller.userId, name: user?.displayName ?? null, avatar: null };
      }
      default: {
        const _exhaustive: never = caller.credential;
        throw new TypeError(`unknown credential ${String(_exhaustive)}`);
      }
    }
  }

  return defineFeedbackOp({
    id: 'reply_to_item',
    honoursIfMatch: 'commands',
    method: 'post',
    path: '/v1/workspaces/{slug}/products/{key}/items/{itemKey}/replies',
    summary: 'Reply on an item (public immediately)',
    tags: ['Triage'],
    params: ItemParams,
    body: z
      .object({
        body: z.string().min(1).max(10_000),
        parentId: z.string().min(1).nullable().optional().meta({
          description: 'a reply of this item to thread under; null or absent for top level',
        }),
      })
      .strict(),
    response: z.object({ replyId: z.string().min(1) }),
    errors: [400, 401, 403, 404],
    answerAs: REFUSED_AS_INVALID,
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription:
      'The reply is public at once, on the item page and in the feed. Personal API ' +
      'tokens and ID tokens reply as `maker`; OAuth access tokens as `agent` with the client name, ' +
      'workspace integration credentials as `agent` with the connection name. ' +
      'A `parentId` that is not a reply of this item, a body of only whitespace, or an item merged ' +
      'into another answers 400.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { key, itemKey } = ctx.params;
      const { body, parentId } = ctx.body;
      if (parentId) {
        assertItemOfProduct(key, itemKey);
        // the item exists but the thread has no such reply: the argument is wrong, not the path
        // (a merged item is refused for that, naming where it went, by replyToItem)
        const { state } = await deps.commandHandler.load(
          itemStreamId(workspaceId, itemKey),
          itemDecider,
        );
        if (state.status === 'open' && !state.replyIds.has(parentId)) {
          throw new InvalidArgument('parentId is not a reply on this item');
        }
      }
      const { replyId, position } = await replyToItem(deps, contextOf(deps, ctx), {
        workspaceId,
        productKey: key,
        itemKey,
        body,
        parentId: parentId ?? null,
        author: await authorOf(ctx.principal),
      });
      return { body: { replyId }, position };
    },
  });
}
