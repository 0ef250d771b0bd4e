/**
 * Delivery state is operational, not domain history: documents in the read store, written only
 * by the webhook runtime (the worker, and redeliver / recover / test requests), never by
 * projectors, so a rebuild neither drops nor replays them. One document per (webhook, message)
 * with its attempt log; the message itself is rebuilt from the log when needed (only a test
 * message, which is not in the log, keeps its body here).
 */
import { createHash } from 'node:crypto';
import type { WebhookEventType } from '../../../commands/webhook/index.js';
import { positionKey } from '../../../projections/shared/guard.js';
import { isWellFormedCorrelationId } from '../../eventstore/types.js';
import type { Collection, Doc, ReadStore } from '../../readstore/types.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One attempt, as get_webhook_delivery shows it. */
export interface Attempt {
  at: number;
  status: 'succeeded' | 'failed';
  durationMs: number;
  responseStatus: number | null;
  /** at most 1 KB of the answer's body */
  responseBodyExcerpt: string | null;
  error: string | null;
}

/** The Delivery record of issue 18, exactly. */
export interface Delivery {
  id: string;
  webhookId: string;
  messageId: string;
  eventType: WebhookEventType;
  status: DeliveryStatus;
  attemptCount: number;
  lastAttemptAt: number | null;
  nextAttemptAt: number | null;
  lastResponseStatus: number | null;
}

export interface DeliveryDoc extends Doc, Delivery {
  createdAt: number;
  _ws: string;
  /** `<workspaceId>.<webhookId>`: the webhook document's id */
  _hook: string;
  /** newest-first order key: creation time, then log position */
  _order: string;
  /** where the message comes from in the log; null for a test message */
  _source: { streamId: string; revision: number } | null;
  /** the body of a test message (not in the log) */
  _payload: string | null;
  /** failed attempts since it was (re)queued: the position in the retry schedule */
  _failures: number;
  _attempts: Attempt[];
  /**
   * the correlation id of the request that caused the message (its event's metadata), sent as
   * `x-correlation-id` and logged with each attempt; null when it is not a well-formed one,
   * absent on deliveries stored before it was kept
   */
  _correlationId?: string | null;
  /**
   * the digest of the last redeliver_webhook's Idempotency-Key and caller (queries.ts
   * `requeueDelivery`): a retry of that request is answered without sending it again
   */
  _redeliveredFor?: string;
  /**
   * times redeliver_webhook or recover_webhook queued it again (absent: never): an attempt under
   * way meanwhile records itself but not its outcome, which would undo the request (attempt.ts)
   */
  _requeues?: number;
  /**
   * of those, the ones no attempt has begun for yet (absent: none): each call is one more
   * attempt, however close together the calls came (attempt.ts `writeOutcome`)
   */
  _owed?: number;
}

/** Attempts kept per delivery (redeliveries add more; the oldest go first). */
export const KEPT_ATTEMPTS = 50;
/** Finished deliveries are kept this long after their last attempt, then pruned. */
export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export const DELIVERIES = 'webhook_deliveries';
export const deliveriesOf = (s: ReadStore): Collection<DeliveryDoc> => s.collection(DELIVERIES);

export async function setupDeliveries(store: ReadStore): Promise<void> {
  const deliveries = deliveriesOf(store);
  await deliveries.createIndex({ keys: { _hook: 1, _order: -1 }, name: 'deliveries_hook' });
  await deliveries.createIndex({
    keys: { _hook: 1, status: 1, _order: -1 },
    name: 'deliveries_hook_status',
  });
  await deliveries.createIndex({
    keys: { _hook: 1, status: 1, nextAttemptAt: 1 },
    name: 'deliveries_due',
  });
  await deliveries.createIndex({ keys: { status: 1, nextAttemptAt: 1 }, name: 'deliveries_next' });
}

/** One delivery per (webhook, message): fanning the same event out twice finds the first. */
export function deliveryIdOf(hookKey: string, messageId: string): string {
  const digest = createHash('sha256').update(`${hookKey}\0${messageId}`).digest('base64url');
  return `dlv_${digest.slice(0, 24).replaceAll('-', 'x').replaceAll('_', 'y')}`;
}

const pad = (n: number) => Math.max(0, n).toString(36).padStart(11, '0');
export const orderKey = (createdAt: number, position: bigint | null, id: string) =>
  `${pad(createdAt)}.${positionKey(position ?? 0n)}.${id}`;

export function newDelivery(input: {
  hookKey: string;
  webhookId: string;
  workspaceId: string;
  messageId: string;
  eventType: WebhookEventType;
  now: number;
  position: bigint | null;
  source: DeliveryDoc['_source'];
  payload: string | null;
  correlationId: string | null;
}): DeliveryDoc {
  const id = deliveryIdOf(input.hookKey, input.messageId);
  return {
    _id: id,
    id,
    webhookId: input.webhookId,
    messageId: input.messageId,
    eventType: input.eventType,
    status: 'pending',
    attemptCount: 0,
    lastAttemptAt: null,
    nextAttemptAt: input.now,
    lastResponseStatus: null,
    createdAt: input.now,
    _ws: input.workspaceId,
    _hook: input.hookKey,
    _order: orderKey(input.now, input.position, id),
    _source: input.source,
    _payload: input.payload,
    _failures: 0,
    _attempts: [],
    // an imported event may carry anything there; only what is fit for a header is kept
    _correlationId: isWellFormedCorrelationId(input.correlationId) ? input.correlationId : null,
  };
}

export function toDelivery(doc: DeliveryDoc): Delivery {
  return {
    id: doc.id,
    webhookId: doc.webhookId,
    messageId: doc.messageId,
    eventType: doc.eventType,
    status: doc.status,
    attemptCount: doc.attemptCount,
    lastAttemptAt: doc.lastAttemptAt,
    nextAttemptAt: doc.nextAttemptAt,
    lastResponseStatus: doc.lastResponseStatus,
  };
}
