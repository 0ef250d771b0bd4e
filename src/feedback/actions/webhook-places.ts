/**
 * Each message fans out to every webhook of its workspace, so their number is bounded
 * (WEBHOOKS_PER_WORKSPACE). The read model lists a webhook only once its creation is projected,
 * so creations in flight together would each see room: a creation first takes its place in the
 * workspace's webhook roster (commands/webhook/roster.ts), at the roster revision its count
 * followed, and only then is its webhook written.
 */
import { FailedPrecondition } from '../../../commands/shared/errors.js';
import { RevisionMismatch } from '../../../commands/shared/revision.js';
import { webhookDecider, webhookStreamId } from '../../../commands/webhook/index.js';
import {
  recentIntents,
  webhookRosterDecider,
  type WebhookRosterState,
  webhookRosterStreamId as rosterOf,
} from '../../../commands/webhook/roster.js';
import { webhooksOfWorkspace } from '../../../projections/webhooks/index.js';
import { again, untilSettled } from '../../write/settle.js';
import { type CommandContext, type FeedbackDeps, withoutKey } from './deps.js';

/**
 * Take `webhookId`'s place among the workspace's webhooks, or refuse (409) when they are as many
 * as `maxPerWorkspace`. A retry of a creation that already happened or is on its way has its
 * place: it is answered by the webhook's stream, not counted twice.
 */
export async function takePlace(
  deps: FeedbackDeps & { maxPerWorkspace: number },
  context: CommandContext,
  workspaceId: string,
  webhookId: string,
): Promise<void> {
  await untilSettled(async () => {
    const roster = await deps.commandHandler.load(rosterOf(workspaceId), webhookRosterDecider);
    const counted = await countedWebhooks(deps, workspaceId, roster.state, context.now);
    if (counted.has(webhookId)) return;
    if (counted.size >= deps.maxPerWorkspace) {
      throw new FailedPrecondition(
        `the workspace has ${counted.size} webhooks, the most it may have (WEBHOOKS_PER_WORKSPACE); delete one first`,
      );
    }
    const intent = { webhookId, at: context.now, expectedRevision: roster.revision };
    try {
      await deps.commandHandler.handle(
        rosterOf(workspaceId),
        webhookRosterDecider,
        { type: 'IntendWebhookCreation', data: intent },
        withoutKey(context),
      );
    } catch (error) {
      if (error instanceof RevisionMismatch) return again; // another creation came first
      throw error;
    }
  }, 'the webhooks of the workspace');
}

/**
 * The webhooks a creation counts: the listed ones, and those of the recent intents
 * (commands/webhook/roster.ts) that are on their way or landed but not listed yet.
 */
async function countedWebhooks(
  deps: FeedbackDeps,
  workspaceId: string,
  roster: WebhookRosterState,
  now: number,
): Promise<Set<string>> {
  const ids = new Set((await webhooksOfWorkspace(deps.readStore, workspaceId)).map((w) => w.id));
  for (const { webhookId } of recentIntents(roster, now)) {
    if (ids.has(webhookId)) continue;
    const stream = webhookStreamId(workspaceId, webhookId);
    const { state } = await deps.commandHandler.load(stream, webhookDecider);
    if (state.status !== 'deleted') ids.add(webhookId);
  }
  return ids;
}
