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

/** Queue one delivery again, due now, with a fresh retry schedule; its log is kept. */
export async function requeueDelivery(
  store: ReadStore,
  query: { hookKey: string; deliveryId: string; now: number },
): Promise<boolean> {
  const result = await deliveriesOf(store).updateOne(
    { _id: query.deliveryId, _hook: query.hookKey },
    { $set: { status: 'pending', nextAttemptAt: query.now, _failures: 0 } },
  );
  return result.matchedCount > 0;
}

/** recover_webhook: queue again every failed delivery created since `since`. */
export async function requeueFailedSince(
  store: ReadStore,
  query: { hookKey: string; since: number; now: number },
): Promise<number> {
  const result = await deliveriesOf(store).updateMany(
    { _hook: query.hookKey, status: 'failed', createdAt: { $gte: query.since } },
    { $set: { status: 'pending', nextAttemptAt: query.now, _failures: 0 } },
  );
  return result.modifiedCount;
}
