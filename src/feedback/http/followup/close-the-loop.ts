/** who_needs_followup, notify_people, draft_changelog_entry (spec "Close the loop"). */
import { whoNeedsFollowup } from '../../followup/followup.js';
import { draftChangelogEntry } from '../../followup/changelog.js';
import { notifyPeople } from '../../followup/notify.js';
import { ItemParams, WorkspaceParams } from '../schemas.js';
import {
  commandContext,
  defineFeedbackOp,
  type FeedbackHttpDeps,
  type FeedbackOperation,
} from '../types.js';
import {
  ChangelogDraft,
  ChangelogRequest,
  Followup,
  NotifyRequest,
  NotifyResult,
} from './schemas.js';
import { accessOf } from './shared.js';
import { CHANGELOG_RULES, FOLLOWUP_RULES, NOTIFY_RULES } from './descriptions.js';

export function closeTheLoopOperations(deps: FeedbackHttpDeps): FeedbackOperation[] {
  const followup = defineFeedbackOp({
    id: 'who_needs_followup',
    method: 'get',
    path: '/v1/workspaces/{slug}/followup',
    summary: 'Shipped items nobody was told about, promises gone stale, threads waiting on a maker',
    tags: ['Close the loop'],
    params: WorkspaceParams,
    response: Followup,
    errors: [401, 403, 404],
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription: FOLLOWUP_RULES,
    async handler(ctx) {
      const { workspaceId } = accessOf(ctx.access);
      const body = await whoNeedsFollowup(deps.readStore, {
        workspaceId,
        now: deps.now(),
        staleDays: deps.config.STALE_PROMISE_DAYS,
      });
      return { body };
    },
  });

  const notify = defineFeedbackOp({
    id: 'notify_people',
    honoursIfMatch: 'commands',
    method: 'post',
    idempotent: true,
    path: '/v1/workspaces/{slug}/products/{key}/items/{itemKey}/notify',
    summary: 'Record who should hear that an item shipped (its requesters); no mail is sent',
    tags: ['Close the loop'],
    params: ItemParams,
    body: NotifyRequest,
    response: NotifyResult,
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription: NOTIFY_RULES,
    async handler(ctx) {
      const { workspaceId } = accessOf(ctx.access);
      const { key, itemKey } = ctx.params;
      const { position, ...body } = await notifyPeople(
        { commandHandler: deps.commandHandler, readStore: deps.readStore },
        commandContext(deps, ctx.principal, ctx),
        { workspaceId, productKey: key, itemKey, message: ctx.body.message },
      );
      return { body, position };
    },
  });

  const changelog = defineFeedbackOp({
    id: 'draft_changelog_entry',
    honoursIfMatch: 'commands',
    method: 'post',
    idempotent: true,
    path: '/v1/workspaces/{slug}/products/{key}/items/{itemKey}/changelog',
    summary: 'Draft a changelog entry for a shipped item; publish it when asked',
    tags: ['Close the loop'],
    params: ItemParams,
    body: ChangelogRequest,
    bodyRequired: false,
    response: ChangelogDraft,
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription: CHANGELOG_RULES,
    async handler(ctx) {
      const { workspaceId } = accessOf(ctx.access);
      const { key, itemKey } = ctx.params;
      const { position, ...body } = await draftChangelogEntry(
        { commandHandler: deps.commandHandler, readStore: deps.readStore },
        commandContext(deps, ctx.principal, ctx),
        { workspaceId, productKey: key, itemKey, ...(ctx.body ?? {}) },
      );
      return { body, position };
    },
  });

  return [followup, notify, changelog];
}
