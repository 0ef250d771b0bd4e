/** Schemas of the webhook operations and of the messages they deliver (OpenAPI components). */
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../../../../commands/webhook/index.js';
import {
  ActingFor,
  Count,
  Item,
  ItemKey,
  ItemStatus,
  ProductKey,
  Reply,
  Slug,
  Timestamp,
} from '../schemas.js';

export const WebhookEventType = z
  .enum(WEBHOOK_EVENT_TYPES)
  .meta({ id: 'WebhookEventType', description: 'a message type' });

export const WebhookId = z
  .string()
  .regex(/^wh_[0-9a-f]{32}$/)
  .describe('webhook id');
export const DeliveryId = z
  .string()
  .regex(/^dlv_[A-Za-z0-9]{24}$/)
  .describe('delivery id');

export const WebhookParams = z.object({ slug: Slug, webhookId: WebhookId });
export const DeliveryParams = z.object({
  slug: Slug,
  webhookId: WebhookId,
  deliveryId: DeliveryId,
});

export const WebhookUrl = z
  .string()
  .min(1)
  .max(2000)
  .describe(
    'https URL of the receiver (http only to a loopback receiver where private targets are allowed); it must not resolve to a loopback, private, link-local, CGNAT, multicast or metadata address, nor hold spaces, control characters or backslashes. Kept as it will be called (parsed and written out again: `HTTPS://A.example/x/../y` is kept as `https://a.example/y`; a `#fragment`, never sent, is dropped)',
  );
export const Description = z
  .string()
  .max(200)
  .describe('a note for people, on one line, at most 200 characters');
export const EventTypes = z
  .array(WebhookEventType)
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .nullable()
  .describe(
    'the message types to receive; absent or null = all, including types added later (send_test_webhook sends webhook.test whatever the filter; a filter of only webhook.test receives nothing else)',
  );
export const ProductKeys = z
  .array(ProductKey)
  .min(1)
  .max(100)
  .nullable()
  .describe('products whose items to report; absent or null = all');

export const Webhook = z
  .object({
    id: WebhookId,
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(WebhookEventType).nullable(),
    productKeys: z.array(ProductKey).nullable(),
    enabled: z.boolean(),
    disabledReason: z
      .string()
      .nullable()
      .describe('why the service disabled it (410 Gone, five days of failures); null otherwise'),
    createdAt: Timestamp,
    createdBy: z
      .string()
      .nullable()
      .describe('the admin who created it (a user id); null when unknown'),
    updatedAt: Timestamp,
  })
  .strict()
  .meta({ id: 'Webhook' });

export const SigningSecret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/=]+$/)
  .describe('`whsec_` + base64 (Standard Webhooks); shown only in this answer');

export const DeliveryStatus = z
  .enum(['pending', 'succeeded', 'failed'])
  .meta({ id: 'DeliveryStatus' });

export const Delivery = z
  .object({
    id: DeliveryId,
    webhookId: WebhookId,
    messageId: z.string().describe('the `webhook-id` header of every attempt'),
    eventType: WebhookEventType,
    status: DeliveryStatus,
    attemptCount: Count,
    lastAttemptAt: z.number().nullable(),
    nextAttemptAt: z.number().nullable(),
    lastResponseStatus: z.number().int().nullable(),
  })
  .strict()
  .meta({ id: 'WebhookDelivery' });

export const DeliveryAttempt = z
  .object({
    at: Timestamp,
    status: z.enum(['succeeded', 'failed']),
    durationMs: Count,
    responseStatus: z.number().int().nullable(),
    responseBodyExcerpt: z
      .string()
      .nullable()
      .describe('the first kilobyte (at most 1024 bytes of UTF-8) of the answer'),
    error: z.string().nullable().describe('what went wrong before an answer came'),
  })
  .strict()
  .meta({ id: 'WebhookDeliveryAttempt' });

const Actor = z
  .object({
    kind: z.enum(['maker', 'person', 'agent', 'system']),
    id: z.string().nullable(),
    name: z.string().nullable(),
    actingFor: ActingFor.optional(),
  })
  .strict()
  .meta({ id: 'MessageActor' });

const ChangelogEntry = z
  .object({
    id: z.string(),
    productId: ProductKey,
    itemId: ItemKey,
    itemIds: z.array(ItemKey),
    title: z.string(),
    body: z.string(),
    requestedByNames: z.array(z.string()),
    requestedByCount: Count,
    publishedAt: Timestamp,
    updatedAt: Timestamp,
  })
  .strict()
  .meta({ id: 'MessageChangelogEntry' });

const ItemMessageData = z
  .object({
    messageId: z.string(),
    workspace: Slug,
    productKey: ProductKey,
    itemKey: ItemKey,
    sequence: Count.describe(
      "item.*: the item's stream revision (every change of an item is one message, so gaps are visible); changelog.published: the entry's revision",
    ),
    position: z.string().describe('global log position (decimal, may exceed 2^53)'),
    actor: Actor,
    via: z.string().optional().describe('attribution label of the change, when there is one'),
    item: Item.describe('the item right after the change'),
    previousStatus: ItemStatus.optional().describe('item.status_changed'),
    reply: Reply.optional().describe('item.replied'),
    changedFields: z
      .array(z.string())
      .optional()
      .describe('item.updated: title, body, plusOneCount'),
    tagIds: z.array(z.string()).optional().describe('item.tagged: the new set'),
    previousTagIds: z.array(z.string()).optional().describe('item.tagged: the set before'),
    mergedKeys: z
      .array(ItemKey)
      .optional()
      .describe('item.merged / item.unmerged: the items merged (or given back)'),
    survivorKey: ItemKey.optional().describe(
      'item.merged / item.unmerged: the item they live (lived) on in',
    ),
    notification: z
      .object({
        status: ItemStatus,
        message: z.string().nullable(),
        notified: Count,
        skipped: Count,
      })
      .strict()
      .optional()
      .describe('item.notified'),
    changelog: ChangelogEntry.optional().describe('changelog.published'),
    links: z
      .object({
        api: z.string().describe('get_item on the feedback API'),
        board: z
          .string()
          .optional()
          .describe("the item's page on the public board, while the product is public"),
      })
      .strict()
      .optional()
      .describe(
        'where to see the item; absent only from a webhooks-only process without FEEDBACK_BASE_URL',
      ),
  })
  .strict()
  .meta({ id: 'ItemMessageData' });

const TestMessageData = z
  .object({
    messageId: z.string(),
    workspace: Slug,
    webhookId: WebhookId,
    actor: Actor,
    via: z.string().optional(),
    note: z.string(),
  })
  .strict()
  .meta({ id: 'TestMessageData' });

export const Message = z
  .object({
    type: WebhookEventType,
    timestamp: z.string().describe('ISO 8601: when the change happened'),
    data: z.union([ItemMessageData, TestMessageData]),
  })
  .strict()
  .meta({ id: 'WebhookMessage' });
