/** Reading and re-queueing deliveries for the management operations. */
import type { Filter, ReadStore } from '../../readstore/types.js';
import { type DeliveryDoc, type DeliveryStatus, deliveriesOf } from './records.js';

/** list_webhook_deliveries: newest first, keyset-paged on the order key. */
export async function listDeliveries(
  store: ReadStore,
  query: { hookKey: string; status?: DeliveryStatus; before?: string | null; limit: number },
): Promise<{ docs: DeliveryDoc[]; nextBefore: string | null }> {
  const filter: Filter = { _hook: query.hookKey };
  if (query.status) filter.status = query.status;
  if (query.before) filter._order = { $lt: query.before };
  const docs = await deliveriesOf(store).find(filter, {
    sort: { _order: -1 },
    limit: query.limit + 1,
  });
  const page = docs.slice(0, query.limit);
  return { docs: page, nextBefore: docs.length > query.limit ? page.at(-1)!._order : null };
}

export function findDelivery(
  store: ReadStore,
  query: { hookKey: string; deliveryId: string },
): Promise<DeliveryDoc | null> {
  return deliveriesOf(store).findOne({ _id: query.deliveryId, _hook: query.hookKey });
}

/**
 * Queue one delivery again, due now, with a fresh retry schedule; its log is kept. `already`: a
 * keyed redelivery's twin — a retry that looked for its key before the first call wrote it — which
 * queues nothing more: its attempt may be under way, and a second queueing sends it again.
 */
export async function requeueDelivery(
  store: ReadStore,
  query: { hookKey: string; deliveryId: string; now: number; keyedFor?: string },
): Promise<'requeued' | 'already' | 'missing'> {
  const delivery = { _id: query.deliveryId, _hook: query.hookKey };
  const result = await deliveriesOf(store).updateOne(
    query.keyedFor ? { ...delivery, _redeliveredFor: { $ne: query.keyedFor } } : delivery,
    {
      $set: {
        status: 'pending',
        nextAttemptAt: query.now,
        _failures: 0,
        ...(query.keyedFor ? { _redeliveredFor: query.keyedFor } : {}),
      },
      $inc: { _requeues: 1, _owed: 1 },
    },
  );
  if (result.matchedCount > 0) return 'requeued';
  if (!query.keyedFor) return 'missing';
  return (await deliveriesOf(store).findOne(delivery)) ? 'already' : 'missing';
}

/**
 * What recover_webhook sends again: the failed messages of the webhook's subscription. A
 * `webhook.test` is a probe sent once on request (send_test_webhook, "tried once"); yesterday's
 * failed probes resent after an outage are noise to the receiver, and redeliver_webhook still
 * sends one again when asked by its id.
 */
const failedSince = (query: { hookKey: string; since: number }): Filter => ({
  _hook: query.hookKey,
  status: 'failed',
  eventType: { $ne: 'webhook.test' },
  createdAt: { $gte: query.since },
});

/** recover_webhook: how many failed deliveries created since `since` it would send again. */
export function countFailedSince(
  store: ReadStore,
  query: { hookKey: string; since: number },
): Promise<number> {
  return deliveriesOf(store).countDocuments(failedSince(query));
}

/**
 * recover_webhook: queue again the `limit` oldest failed deliveries created since `since` (the
 * throttle's room; the rest stay failed for the next call).
 */
export async function requeueFailedSince(
  store: ReadStore,
  query: { hookKey: string; since: number; now: number; limit: number },
): Promise<number> {
  if (query.limit <= 0) return 0;
  const oldest = await deliveriesOf(store).find(failedSince(query), {
    sort: { _order: 1 },
    limit: query.limit,
    projection: { _id: 1 },
  });
  if (oldest.length === 0) return 0;
  const result = await deliveriesOf(store).updateMany(
    { ...failedSince(query), _id: { $in: oldest.map((d) => d._id) } },
    {
      $set: { status: 'pending', nextAttemptAt: query.now, _failures: 0 },
      $inc: { _requeues: 1, _owed: 1 },
    },
  );
  return result.modifiedCount;
}
