/**
 * What one event of the log does to the webhook worker's state: an item or changelog event
 * becomes deliveries (fan-out.ts) queued on the dispatcher; a webhook's own event pauses,
 * resumes or forgets its deliveries.
 */
import type { RecordedEvent } from '../../eventstore/types.js';
import type { ReadStore } from '../../readstore/types.js';
import type { WebhookClock } from '../clock.js';
import type { Dispatcher } from '../delivery/dispatcher.js';
import { forgetHealth } from '../delivery/health.js';
import { deliveriesOf } from '../delivery/records.js';
import type { createFanOut } from './fan-out.js';

export function createEventHandler(deps: {
  readStore: ReadStore;
  fanOut: ReturnType<typeof createFanOut>;
  clock: WebhookClock;
  /** resolves once the read models include `position` */
  waitFor(position: bigint): Promise<void>;
}) {
  const { readStore, fanOut } = deps;

  async function onWebhookEvent(event: RecordedEvent, active: Dispatcher): Promise<void> {
    const hookKey = event.streamId.slice('webhook-'.length);
    const workspaceId = hookKey.slice(0, hookKey.indexOf('.'));
    fanOut.forget(workspaceId);
    switch (event.type) {
      case 'WebhookEnabled':
        // resume from where it stopped: everything it missed is due now
        active.resume(hookKey);
        await forgetHealth(readStore, hookKey);
        await deliveriesOf(readStore).updateMany(
          { _hook: hookKey, status: 'pending' },
          { $set: { nextAttemptAt: deps.clock.now() } },
        );
        // the scan sends only for webhooks the read model shows enabled: woken before it does,
        // it skipped this one, and what waited went only with the next poll, 5 s later
        await deps.waitFor(event.position);
        void active.wake();
        return;
      case 'WebhookDisabled':
        active.drop(hookKey);
        return;
      case 'WebhookDeleted':
        active.drop(hookKey);
        await deliveriesOf(readStore).deleteMany({ _hook: hookKey });
        await forgetHealth(readStore, hookKey);
        return;
      default:
        return;
    }
  }

  /** Handle one event; true when it stored or changed deliveries or webhooks. */
  return async function handle(event: RecordedEvent, active: Dispatcher): Promise<boolean> {
    if (event.streamId.startsWith('webhook-')) {
      await onWebhookEvent(event, active);
      return true;
    }
    const deliveries = await fanOut.deliveriesOf(event);
    for (const { doc, enabled } of deliveries) {
      if (enabled) active.enqueue(doc);
    }
    return deliveries.length > 0;
  };
}
