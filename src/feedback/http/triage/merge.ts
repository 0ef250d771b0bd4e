/**
 * merge_items. The spec declares only 400/401/403/404 here, so the refusals are placed there:
 *   unknown survivor or unknown key in `mergedKeys`      -> 404 not-found
 *   the survivor listed in `mergedKeys` (self-merge)     -> 400 invalid-argument
 *   a key already merged into another item, or a
 *   survivor that was itself merged away (also by a
 *   merge that raced this one: then nothing is merged)   -> 400 invalid-argument
 * Repeating a merge that already happened (same survivor, same keys) is not a refusal: it
 * appends nothing and answers the same `{survivorId, mergedPeople}` — safe to retry.
 */
import { z } from 'zod';
import { mergeItems } from '../../actions/index.js';
import type { RecoveryDeps } from '../../actions/continued.js';
import { Count, ItemKey, ItemParams } from '../schemas.js';
import { defineFeedbackOp, type FeedbackHttpDeps, type FeedbackOperation } from '../types.js';
import { contextOf, REFUSED_AS_INVALID, workspaceOf } from './shared.js';

/** `eventStore`: an unmerge this merge finishes is recorded as its own request's (continued.ts). */
export function mergeOperation(deps: FeedbackHttpDeps & RecoveryDeps): FeedbackOperation {
  return defineFeedbackOp({
    id: 'merge_items',
    honoursIfMatch: 'commands',
    method: 'post',
    destructive: true,
    idempotent: true,
    path: '/v1/workspaces/{slug}/products/{key}/items/{itemKey}/merge',
    summary: 'Fold duplicate items into the item in the path',
    tags: ['Triage'],
    params: ItemParams,
    body: z
      .object({
        mergedKeys: z.array(ItemKey).min(1).max(50).meta({
          description:
            "the duplicates, 1 to 50 item keys of the path's product (another product's key: 404)",
        }),
      })
      .strict(),
    response: z.object({
      survivorId: ItemKey,
      mergedPeople: Count.meta({ description: 'people new to the survivor from these items' }),
    }),
    errors: [400, 401, 403, 404],
    answerAs: REFUSED_AS_INVALID,
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription:
      'The item in the path survives and keeps the +1s and the people of the merged ' +
      'items (each person counted once). A merged item keeps its status but becomes read-only: ' +
      'it leaves every listing and count, get_item and resolve_item still answer for its key, and ' +
      'changing it answers 400. No item can be merged twice or into itself (400); an unknown key ' +
      'answers 404 and nothing is merged. Repeating the same merge is safe and answers the same.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { key, itemKey } = ctx.params;
      const { survivorId, mergedPeople, position } = await mergeItems(deps, contextOf(deps, ctx), {
        workspaceId,
        productKey: key,
        survivorKey: itemKey,
        mergedKeys: ctx.body.mergedKeys,
      });
      return { body: { survivorId, mergedPeople }, position };
    },
  });
}
