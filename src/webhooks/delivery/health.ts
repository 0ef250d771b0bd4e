/**
 * Whether a webhook's receiver keeps failing: the time its current run of failed attempts began.
 * Five days of nothing but failures disables the webhook (issue 18). A change that may end them
 * (re-enabling it, a new URL, a new secret) starts the count afresh; one that does not (its
 * description, its event types or products) leaves it running.
 */
import { type WebhookDoc, webhooksOf } from '../../../projections/webhooks/document.js';
import type { Doc, ReadStore } from '../../readstore/types.js';
import { DISABLE_AFTER_MS } from './schedule.js';

interface HealthDoc extends Doc {
  failingSince: number | null;
}

const HEALTH = 'webhook_health';
const healthOf = (store: ReadStore) => store.collection<HealthDoc>(HEALTH);

export async function recordSuccess(store: ReadStore, hookKey: string): Promise<boolean> {
  const known = await healthOf(store).findOne({ _id: hookKey });
  if (!known?.failingSince) return false;
  await healthOf(store).updateOne({ _id: hookKey }, { $set: { failingSince: null } });
  return true;
}

/** Records a failed attempt; answers since when it has been failing when that is 5 days or more. */
export async function recordFailure(
  store: ReadStore,
  input: { hookKey: string; now: number; changedAt: number },
): Promise<number | null> {
  const known = await healthOf(store).findOne({ _id: input.hookKey });
  const since =
    known?.failingSince != null && known.failingSince >= input.changedAt
      ? known.failingSince
      : input.now;
  if (known?.failingSince !== since) {
    await healthOf(store).updateOne(
      { _id: input.hookKey },
      { $set: { failingSince: since } },
      { upsert: true },
    );
  }
  return input.now - since >= DISABLE_AFTER_MS ? since : null;
}

/**
 * Whether the webhook an attempt was sent for (`sentFor`, read as the attempt began) still has
 * that receiver as the attempt's outcome is written: the same URL and no change since that counts
 * the failures afresh. An attempt to a URL the admin has just replaced — in flight as they fixed
 * it — says nothing about the new one: it neither extends the failures nor disables the webhook.
 */
export async function stillTheReceiver(store: ReadStore, sentFor: WebhookDoc): Promise<boolean> {
  const now = await webhooksOf(store).findOne({ _id: sentFor._id });
  return (
    now !== null &&
    now.url === sentFor.url &&
    (now._receiverSince ?? now.updatedAt) === (sentFor._receiverSince ?? sentFor.updatedAt)
  );
}

export async function forgetHealth(store: ReadStore, hookKey: string): Promise<void> {
  await healthOf(store).deleteOne({ _id: hookKey });
}
