/**
 * The projection engine's run loop: one catch-up subscription to `$all`, each event handed to
 * `apply`. A store that cannot be reached pauses the loop instead of ending it (outage.ts): it
 * subscribes again from the lowest checkpoint after a backoff, and the projectors' position guards
 * skip what a projector had already applied. Any other error stops the engine.
 */
import type { EventStore, RecordedEvent, Subscription } from '../eventstore/types.js';
import { RETRY_FIRST_MS, RETRY_MAX_MS, unreachable } from './outage.js';

export interface RunDeps {
  eventStore: EventStore;
  apply(event: RecordedEvent): Promise<void>;
  /** the subscription now open (the engine closes it to stop the loop) */
  subscribed(subscription: Subscription): void;
  /** the engine closed the subscription itself: not a failure */
  closing(): boolean;
  /** where to subscribe again from after a pause */
  lowestCheckpoint(): bigint;
  fail(error: Error): void;
  logger: Pick<Console, 'error'>;
}

export async function runSubscription(deps: RunDeps, from: bigint): Promise<void> {
  const { eventStore, logger } = deps;
  let delay = RETRY_FIRST_MS;
  let after = from;
  for (;;) {
    const subscription = eventStore.subscribeToAll(after > 0n ? { after } : {});
    deps.subscribed(subscription);
    try {
      for await (const event of subscription) {
        await deps.apply(event);
        delay = RETRY_FIRST_MS;
      }
      return;
    } catch (error) {
      if (deps.closing()) return; // our own close(), not a failure
      if (!unreachable(error)) return deps.fail(error as Error);
      logger.error(
        `projection engine paused: ${(error as Error).message}; resuming in ${delay} ms`,
      );
      await subscription.close().catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (deps.closing()) return;
      delay = Math.min(delay * 2, RETRY_MAX_MS);
      after = deps.lowestCheckpoint();
    }
  }
}
