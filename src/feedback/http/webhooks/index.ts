/** Outbound webhooks and the event feed (issue 18). */
import type { FeedbackOperation } from '../types.js';
import { deliveryOperations } from './deliveries.js';
import { eventsOperation } from './events.js';
import { manageOperations } from './manage.js';
import type { WebhookHttpDeps } from './shared.js';

export { outboundWebhooks } from './outbound.js';
export type { WebhookHttpDeps } from './shared.js';

export function webhookOperations(deps: WebhookHttpDeps): FeedbackOperation[] {
  return [...manageOperations(deps), ...deliveryOperations(deps), eventsOperation(deps)];
}
