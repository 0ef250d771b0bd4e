/**
 * submit_feedback: the public way in for end users' own assistants. The spec leaves the body and
 * response "not shown"; this is the design:
 *
 *   POST /v1/public/{slug}/{key}/feedback
 *   { body: string 1–10000 (required, not only whitespace),
 *     title?: string ≤500 or null — blank or absent: derived from the opening of the body,
 *     email?: e-mail of the person the feedback is from, or null,
 *     displayName?: string 1–100 or null }
 *   -> 200 { itemId, title, status } (the spec: "Success is HTTP 200 … unless stated"): the
 *      item as this submission left it — `new`, or the earlier item's own when folded into it
 *
 * Who the item is from (issue 10 item 3: an e-mail address nobody proved never attaches a
 * submission to an existing person and never changes a person's profile):
 *  - no `email`, or the caller's own account address (proved at sign-in): the caller's person;
 *    `displayName` is the name they give themselves;
 *  - another address, sent by a member of the workspace (not with a `service.public` token):
 *    filed on that customer's behalf — the person of that address (created when new); an
 *    existing person's name is never changed by it;
 *  - another address from anyone else: nobody proved it, so the item goes to an unverified
 *    person of the caller and that address (tier `anonymous`, the address kept as contact, the
 *    given name shown), never to the person who owns the address.
 * The item's `via` is the credential's label.
 *
 * Access: any valid bearer, `service.public` tokens included, no membership needed. A private
 * product answers 404 to everyone outside the workspace exactly like an unknown slug or key
 * ("submissions are refused"); members may file into their own private product, except with a
 * `service.public` token — membership never widens such a token.
 *
 * Spam and rate limits: the public board's (src/feedback/capture): per account and per product
 * token buckets in the store, at most CAPTURE_MAX_LINKS links, and the same body from the same
 * person within 10 minutes answered with the first item instead of a second one. Members of the
 * workspace are not limited. Past a bucket: 429 resource-exhausted with Retry-After.
 */
import { z } from 'zod';
import { NotFound } from '../../../../commands/shared/errors.js';
import { userById } from '../../../../projections/users/queries.js';
import type { PersonIds, Requester } from '../../actions/index.js';
import { captureFeedback } from '../../capture/file.js';
import { CAPTURE_BODY_MAX, CAPTURE_TITLE_MAX, type CaptureGuard } from '../../capture/guard.js';
import { boardFor, NO_BOARD } from '../public/board.js';
import { ItemKey, ItemStatus, ProductParams } from '../schemas.js';
import {
  type Caller,
  defineFeedbackOp,
  type FeedbackHttpDeps,
  type FeedbackOperation,
} from '../types.js';
import { contextOf } from './shared.js';
import { emailKey } from '../../../../commands/shared/email.js';

const SubmitFeedbackBody = z
  .object({
    body: z
      .string()
      .min(1)
      .max(10_000)
      .meta({
        description: `the feedback itself (from outside the workspace at most ${CAPTURE_BODY_MAX} characters)`,
      }),
    title: z
      .string()
      .max(500)
      .nullable()
      .optional()
      .meta({
        description: `blank or absent: derived from the opening of the body (from outside the workspace at most ${CAPTURE_TITLE_MAX} characters)`,
      }),
    email: z.email().max(254).nullable().optional().meta({
      description:
        "who the feedback is from; absent: the calling user. Another address than the caller's own counts only for members of the workspace; from anyone else it goes to an unverified contact (see the operation's description)",
    }),
    displayName: z.string().min(1).max(100).nullable().optional(),
  })
  .strict()
  .meta({ id: 'SubmitFeedbackRequest' });

const SubmittedFeedback = z
  .object({ itemId: ItemKey, title: z.string(), status: ItemStatus })
  .strict()
  .meta({ id: 'SubmittedFeedback' });

export function submitOperation(
  deps: FeedbackHttpDeps & { guard: CaptureGuard; personIds: PersonIds },
): FeedbackOperation {
  const { limits } = deps.guard;

  async function requesterOf(
    caller: Caller,
    member: boolean,
    given: { email?: string | null; displayName?: string | null },
  ): Promise<Requester> {
    const user = await userById(deps.readStore, caller.userId);
    const own = user && emailKey(user.email);
    const email = given.email && emailKey(given.email);
    if (!email || email === own) {
      if (user) return { email: user.email, displayName: given.displayName ?? user.displayName };
      return { anonymousId: `user:${caller.userId}`, displayName: given.displayName ?? null };
    }
    const displayName = given.displayName ?? null;
    if (member) return { email, displayName, updateProfile: false };
    return { email, displayName, unprovenBy: caller.userId };
  }

  return defineFeedbackOp({
    id: 'submit_feedback',
    honoursIfMatch: 'commands',
    method: 'post',
    path: '/v1/public/{slug}/{key}/feedback',
    summary: 'File feedback on a public product',
    tags: ['Public'],
    params: ProductParams,
    body: SubmitFeedbackBody,
    response: SubmittedFeedback,
    responseDescription: 'the captured item',
    errors: [400, 401, 403, 404, 429],
    auth: 'bearer',
    meta: { publicScope: true },
    extraDescription:
      "Without `email`, or with the caller's own account address, the feedback is from the " +
      'calling user. A member of the workspace (not with a `service.public` token) may file for ' +
      'a customer by their address; that never renames an existing person. From anyone else an ' +
      'address nobody proved never reaches the person who owns it: the item goes to an ' +
      'unverified person of the caller and that address (author tier `anonymous`). ' +
      'A private product answers 404 to ' +
      'everyone outside its workspace, like an unknown address. ' +
      "Spam and rate limits are the public board's: a caller outside the workspace may send " +
      `${limits.personBurst} at once and then ${limits.personPerHour} per hour, a product takes ` +
      `${limits.productBurst} at once and then ${limits.productPerHour} per hour from everyone ` +
      `together (past that 429 \`resource-exhausted\` with \`Retry-After\`); at most ` +
      `${limits.maxLinks} links, a body of at most ${CAPTURE_BODY_MAX} characters and a title of ` +
      `at most ${CAPTURE_TITLE_MAX}, as in the capture box (else 400); the same body from the same person on the same ` +
      'product within 10 minutes answers the first item instead of filing a second one. ' +
      'Members of the workspace are not limited. Send `Idempotency-Key` to make a retry return ' +
      'the first item instead of filing a second one.',
    async handler(ctx) {
      const caller = ctx.principal;
      const { slug, key } = ctx.params;
      const board = await boardFor(deps.readStore, caller, slug, key);
      if (!board) throw new NotFound(NO_BOARD);
      const { body, title, email, displayName } = ctx.body;
      const requester = await requesterOf(caller, board.member, { email, displayName });
      const context = contextOf(deps, ctx);
      // someone outside the workspace files as the person the item is from, as on the board:
      // history and the audit trail name a person, never a maker of a workspace they are not in
      const actor = board.member
        ? context.actor
        : await deps.personIds.resolve(board.workspaceId, requester, context);
      const captured = await captureFeedback(
        deps,
        { ...context, actor },
        {
          workspaceId: board.workspaceId,
          productKey: key,
          body,
          title: title ?? null,
          requester,
          member: board.member,
          ...(board.member ? {} : { asker: { person: `user:${caller.userId}` } }),
        },
      ).catch((error: unknown) => {
        // the product turned private between the look-up and the allocation
        throw error instanceof NotFound ? new NotFound(NO_BOARD) : error;
      });
      return {
        body: { itemId: captured.itemKey, title: captured.title, status: captured.status },
        position: captured.position,
      };
    },
  });
}
