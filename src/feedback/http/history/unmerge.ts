/**
 * unmerge_items (issue 15). Statuses within the declared 400/401/403/404:
 *   unknown survivor                                      -> 404 not-found
 *   a key that was never merged into this item            -> 400 invalid-argument
 *   the survivor listed in `mergedKeys`; a survivor that
 *   was itself merged into another item                   -> 400 invalid-argument
 * Repeating an unmerge that already took effect answers 200 with the same result and changes
 * nothing.
 */
import { z } from 'zod';
import { unmergeItems } from '../../actions/index.js';
import { Count, ItemKey, ItemParams } from '../schemas.js';
import { contextOf, REFUSED_AS_INVALID, workspaceOf } from '../triage/shared.js';
import { defineFeedbackOp, type FeedbackHttpDeps, type FeedbackOperation } from '../types.js';

export function unmergeOperation(deps: FeedbackHttpDeps): FeedbackOperation {
  return defineFeedbackOp({
    id: 'unmerge_items',
    honoursIfMatch: 'commands',
    method: 'post',
    idempotent: true,
    path: '/v1/workspaces/{slug}/products/{key}/items/{itemKey}/unmerge',
    summary: 'Undo merges into the item in the path, exactly',
    tags: ['Triage'],
    params: ItemParams,
    body: z
      .object({
        mergedKeys: z
          .array(ItemKey)
          .min(1)
          .max(50)
          .meta({ description: '1 to 50 item keys previously merged into this item' }),
      })
      .strict(),
    response: z
      .object({
        survivorId: ItemKey,
        restoredKeys: z
          .array(ItemKey)
          .meta({ description: 'the items standing on their own again' }),
        restoredPeople: Count.meta({
          description:
            'people who were on the survivor only through these items and left with them',
        }),
      })
      .strict(),
    errors: [400, 401, 403, 404],
    answerAs: REFUSED_AS_INVALID,
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription:
      'Each merged item comes back with its own status, title, body, tags, replies, +1s and people ' +
      '(and the +1s given on its key while it was merged); the survivor keeps what it had plus ' +
      'what reached it independently — a person who +1d both stays on both. Repeating it answers ' +
      'the same and changes nothing; a key never merged into this item answers 400. Merging the ' +
      'same items again gives the first merge’s answers.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { key, itemKey } = ctx.params;
      const { survivorId, restoredKeys, restoredPeople, position } = await unmergeItems(
        deps,
        contextOf(deps, ctx),
        { workspaceId, productKey: key, survivorKey: itemKey, mergedKeys: ctx.body.mergedKeys },
      );
      return { body: { survivorId, restoredKeys, restoredPeople }, position };
    },
  });
}
