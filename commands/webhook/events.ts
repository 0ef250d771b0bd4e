import { z } from 'zod';
import type { DomainEvent } from '../shared/decider.js';

/**
 * Outbound webhooks (issue 18). The message types a webhook can subscribe to; `webhook.test` is
 * what send_test_webhook delivers (to that one webhook, whatever its filters say).
 * `item.unmerged` goes beyond the list: an unmerge (issue 15) changes both items as much
 * as the merge did, and a receiver that mirrored the merge needs to hear it.
 */
export const WEBHOOK_EVENT_TYPES = [
  'item.created',
  'item.status_changed',
  'item.replied',
  'item.updated',
  'item.tagged',
  'item.merged',
  'item.unmerged',
  'item.notified',
  'changelog.published',
  'webhook.test',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/**
 * A signing secret as it is recorded: sealed with a key derived from the service's secret
 * (src/webhooks/secrets.ts), never the `whsec_` value itself. The signer must be able to use it,
 * so it cannot be a hash.
 */
export const SealedSecret = z.string().min(1);

/** null = every type / every product, including ones added later */
export const EventTypeFilter = z.array(WebhookEventType).min(1).nullable();
export const ProductKeyFilter = z
  .array(z.string().regex(/^[A-Z]{3,5}$/))
  .min(1)
  .nullable();

/**
 * The OAuth grant under which a third-party app set a webhook's URL: the user who connected the
 * app and its client id. Disconnecting that app disables the webhook (revoke_connected_app), so a
 * receiver an app chose never outlives the user's consent. null when the maker's own credential
 * set the URL; absent on events recorded before this rule (read as null).
 */
export const OAuthGrant = z.object({ userId: z.string().min(1), clientId: z.string().min(1) });
export type OAuthGrant = z.infer<typeof OAuthGrant>;

export const WebhookCreatedData = z.object({
  webhookId: z.string().min(1),
  workspaceId: z.string().min(1),
  url: z.string().min(1),
  description: z.string().max(200),
  eventTypes: EventTypeFilter,
  productKeys: ProductKeyFilter,
  secret: SealedSecret,
  grant: OAuthGrant.nullable().optional(),
});
/** Only what changed; `grant` changes with `url`. */
export const WebhookUpdatedData = z.object({
  url: z.string().min(1).optional(),
  grant: OAuthGrant.nullable().optional(),
  description: z.string().max(200).optional(),
  eventTypes: EventTypeFilter.optional(),
  productKeys: ProductKeyFilter.optional(),
});
/** `reason` is null when an admin switched it off, a sentence when the service did. */
export const WebhookDisabledData = z.object({ reason: z.string().min(1).nullable() });
export const WebhookEnabledData = z.object({});
/** The replaced secret still signs until `previousValidUntil` (ms since the epoch). */
export const WebhookSecretRotatedData = z.object({
  secret: SealedSecret,
  previousValidUntil: z.number().int(),
});
export const WebhookDeletedData = z.object({});

type Data<S extends z.ZodType> = z.infer<S>;
export type WebhookCreated = DomainEvent<'WebhookCreated', Data<typeof WebhookCreatedData>>;
export type WebhookUpdated = DomainEvent<'WebhookUpdated', Data<typeof WebhookUpdatedData>>;
export type WebhookDisabled = DomainEvent<'WebhookDisabled', Data<typeof WebhookDisabledData>>;
export type WebhookEnabled = DomainEvent<'WebhookEnabled', Data<typeof WebhookEnabledData>>;
export type WebhookSecretRotated = DomainEvent<
  'WebhookSecretRotated',
  Data<typeof WebhookSecretRotatedData>
>;
export type WebhookDeleted = DomainEvent<'WebhookDeleted', Data<typeof WebhookDeletedData>>;

export type WebhookEvent =
  | WebhookCreated
  | WebhookUpdated
  | WebhookDisabled
  | WebhookEnabled
  | WebhookSecretRotated
  | WebhookDeleted;

export const webhookEventSchemas = {
  WebhookCreated: WebhookCreatedData,
  WebhookUpdated: WebhookUpdatedData,
  WebhookDisabled: WebhookDisabledData,
  WebhookEnabled: WebhookEnabledData,
  WebhookSecretRotated: WebhookSecretRotatedData,
  WebhookDeleted: WebhookDeletedData,
} as const;
