/**
 * The webhook roster of one workspace (stream `webhookroster-<workspaceId>`): creations are
 * serialised here, so the most-webhooks-per-workspace count holds under concurrent requests.
 * Each create_webhook appends its intent at the roster revision it read before counting; only
 * then is the webhook's own stream created. A later creation reads the roster after the earlier
 * intent, so it counts that webhook: landed (its stream) or still on its way (the intent, while
 * its stream does not exist and the intent is younger than the lease).
 *
 * Only recent intents are kept in the state: an older one has landed (the read model lists it)
 * or was abandoned.
 */
import { z } from 'zod';
import type { Decider } from '../shared/decider.js';
import { claimLeaseMs } from '../shared/lease.js';
import { checkRevision } from '../shared/revision.js';

export const webhookIntentSchema = z.object({
  webhookId: z.string().min(1),
  /** when intended (the command's time), for the lease */
  at: z.number(),
});
export type WebhookIntent = z.infer<typeof webhookIntentSchema>;

export const webhookRosterEventSchemas = { WebhookCreationIntended: webhookIntentSchema } as const;
export type WebhookRosterEvent = { type: 'WebhookCreationIntended'; data: WebhookIntent };

export type WebhookRosterState = {
  revision: number;
  /** webhookId -> when its creation was intended, for the intents younger than the lease */
  recent: Readonly<Record<string, number>>;
};

/** `expectedRevision`: the roster revision the count was made after. */
export type IntendWebhookCreation = {
  type: 'IntendWebhookCreation';
  data: WebhookIntent & { expectedRevision: number };
};

export const webhookRosterDecider: Decider<
  WebhookRosterState,
  IntendWebhookCreation,
  WebhookRosterEvent
> = {
  initialState: () => ({ revision: -1, recent: {} }),
  evolve(state, event) {
    const { webhookId, at } = event.data;
    const recent: Record<string, number> = {};
    for (const [id, when] of Object.entries(state.recent)) {
      if (at - when < claimLeaseMs) recent[id] = when;
    }
    recent[webhookId] = at;
    return { revision: state.revision + 1, recent };
  },
  decide(command, state) {
    const { expectedRevision, ...intent } = command.data;
    checkRevision(expectedRevision, state.revision);
    return [{ type: 'WebhookCreationIntended', data: intent }];
  },
};

/** The webhooks whose creation was intended less than a lease before `now`. */
export function recentIntents(state: WebhookRosterState, now: number): WebhookIntent[] {
  return Object.entries(state.recent)
    .filter(([, at]) => now - at < claimLeaseMs)
    .map(([webhookId, at]) => ({ webhookId, at }));
}

export function webhookRosterStreamId(workspaceId: string): string {
  return `webhookroster-${workspaceId}`;
}
