import type { OAuthGrant, PreviousSecret, WebhookEventType } from '../../commands/webhook/index.js';
import type { Collection, Doc, ReadStore } from '../../src/readstore/types.js';

/** The Webhook record of issue 18, exactly. */
export interface Webhook {
  id: string;
  url: string;
  description: string;
  /** null: every type */
  eventTypes: WebhookEventType[] | null;
  /** null: every product */
  productKeys: string[] | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: number;
  /** the user (a maker) who created it: WebhookCreated's actor; null when unknown */
  createdBy: string | null;
  updatedAt: number;
}

/** Internal fields start with `_`; toWebhook strips them (the sealed secrets above all). */
export type WebhookDoc = Doc &
  Webhook & {
    _ws: string;
    /** log position of WebhookCreated: messages from before it are not this webhook's */
    _createdPos: string;
    /** tombstone, so a replayed WebhookCreated cannot bring a deleted webhook back */
    _deleted: boolean;
    _secret: string;
    /** the secret the last rotation replaced; documents projected before that rule hold up to 3 */
    _previousSecrets: PreviousSecret[];
    /** the OAuth app's grant that set the URL; null (or absent, projected earlier): the maker's */
    _grant?: OAuthGrant | null;
    /** the app that set the URL before events carried its grant (projector.ts legacyApp) */
    _legacyApp?: LegacyApp | null;
    /**
     * when what the receiver is sent last changed in a way that may end its failures: created,
     * a new URL, re-enabled, a new secret (delivery/health.ts counts five days from no earlier);
     * absent (projected earlier): `updatedAt`
     */
    _receiverSince?: number;
    /**
     * the filters before each of its last changes (oldest first): an event appended before
     * `until` (a log position) is judged by the ones it met, however late the worker fans it out;
     * absent (projected earlier): none recorded
     */
    _filtersBefore?: FiltersBefore[];
  };

/** the webhook's filters as they were until the change at `until` */
export interface FiltersBefore {
  until: string;
  eventTypes: WebhookEventType[] | null;
  productKeys: string[] | null;
}

/** Filter changes a webhook keeps: an event older than all of them meets the oldest kept. */
export const FILTER_CHANGES_KEPT = 10;

/** An OAuth app known only by its client name and the user it acted for (no client id). */
export interface LegacyApp {
  userId: string;
  clientName: string;
}

export const WEBHOOKS = 'webhooks';
export const webhooksOf = (s: ReadStore): Collection<WebhookDoc> => s.collection(WEBHOOKS);
export const webhookDocId = (workspaceId: string, webhookId: string): string =>
  `${workspaceId}.${webhookId}`;

export function toWebhook(doc: WebhookDoc): Webhook {
  return {
    id: doc.id,
    url: doc.url,
    description: doc.description,
    eventTypes: doc.eventTypes,
    productKeys: doc.productKeys,
    enabled: doc.enabled,
    disabledReason: doc.disabledReason,
    createdAt: doc.createdAt,
    createdBy: doc.createdBy ?? null,
    updatedAt: doc.updatedAt,
  };
}
