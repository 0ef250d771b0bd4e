/**
 * The messages the service POSTs to a webhook's receiver, as OpenAPI 3.1 `webhooks`: one entry
 * per message type (README, "What you receive"), each with the Standard Webhooks headers and the
 * WebhookMessage body list_events answers too. Without them the document's `webhooks` was
 * empty — to a receiver generated or checked from it, the service sent nothing.
 */
import { z } from 'zod';
import type { WebhookEventType } from '../../../../commands/webhook/index.js';
import type { OutboundWebhook } from '../../../http/openapi.js';
import { Message } from './schemas.js';

/** when each type is sent, and what its `data` adds (README's table) */
const WHEN: Record<WebhookEventType, string> = {
  'item.created':
    'Feedback arrives (board page, widget, `submit_feedback`, import). `data` adds nothing.',
  'item.status_changed': "An item's status changes. `data` adds `previousStatus`.",
  'item.replied': 'Someone replies on an item. `data` adds `reply` (the Reply record).',
  'item.updated':
    'Title or body edited, or a +1 given or withdrawn. `data` adds `changedFields` (`title`, `body`, `plusOneCount`).',
  'item.tagged': 'The tag set is replaced. `data` adds `tagIds`, `previousTagIds`.',
  'item.merged':
    'Items are merged (one message on the survivor, one on each merged item). `data` adds `mergedKeys`, `survivorKey`.',
  'item.unmerged':
    'A merge is undone (`unmerge_items`; one message on the survivor, one on each item given back). `data` adds `mergedKeys`, `survivorKey`.',
  'item.notified':
    '`notify_people` recorded who hears about the item. `data` adds `notification`: `{status, message, notified, skipped}`.',
  'changelog.published':
    'A changelog entry is published or revised. `data` adds `changelog` (the entry); `sequence` counts the entry’s own revisions.',
  'webhook.test':
    '`send_test_webhook`, whatever the filters; tried once. `data` is `{messageId, workspace, webhookId, actor, via, note}` instead of the item fields.',
};

const Headers = z.object({
  'webhook-id': z
    .string()
    .regex(/^msg_[0-9a-f]{32}$/)
    .describe(
      'the message id (`data.messageId`): the same on every retry, redelivery and restart — deduplicate on it',
    ),
  'webhook-timestamp': z
    .string()
    .regex(/^\d+$/)
    .describe('when this attempt was sent, in Unix seconds'),
  'webhook-signature': z
    .string()
    .describe(
      '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` with the webhook’s secret; two, space-separated, for 24 hours after a secret rotation. Verify it with a Standard Webhooks library, on the raw body',
    ),
  'x-correlation-id': z
    .string()
    .optional()
    .describe(
      'the correlation id of the request that caused the message, the same on every attempt; not signed',
    ),
});

const RESPONSES = {
  '2XX': 'Received: the delivery succeeded. Answer within 15 seconds',
  '410': 'Gone: the webhook is disabled (`disabledReason` says why) and the message is kept',
  default:
    'Any other answer, none within 15 seconds, or a redirect (never followed) is a failure: sent again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h with the same `webhook-id`; a 429 or 503 with Retry-After waits at least that long',
};

export function outboundWebhooks(): OutboundWebhook[] {
  return Object.entries(WHEN).map(([type, when]) => ({
    name: type,
    summary: `The ${type} message`,
    description: `${when} Body: \`{type: "${type}", timestamp, data}\`.`,
    headers: Headers,
    body: Message,
    responses: RESPONSES,
  }));
}
