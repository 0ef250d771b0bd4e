import type { Decider } from '../shared/decider.js';
import { decideWebhook, type WebhookCommand } from './decide.js';
import type { WebhookEvent } from './events.js';
import { evolveWebhook, initialWebhookState, type WebhookState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './state.js';

export const webhookDecider: Decider<WebhookState, WebhookCommand, WebhookEvent> = {
  initialState: initialWebhookState,
  evolve: evolveWebhook,
  decide: decideWebhook,
};

/** `webhook-<workspaceId>.<webhookId>` */
export const webhookStreamId = (workspaceId: string, webhookId: string): string =>
  `webhook-${workspaceId}.${webhookId}`;
