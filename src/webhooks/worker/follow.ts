/**
 * Following the event log from the worker's checkpoint for as long as it leads: each event is
 * handled until it is (a failing read store is waited out), then the checkpoint passes it. A
 * subscription that fails — KurrentDB restarting or a dropped connection — is opened again from
 * the checkpoint after a backoff: a leader that stopped following would keep its lease and
 * deliver nothing, and the standby would never take over.
 */
import {
  type EventStore,
  EventStoreUnavailableError,
  type RecordedEvent,
  type Subscription,
} from '../../eventstore/types.js';
import type { Logger } from '../../platform/logger.js';
import { ReadStoreUnavailableError } from '../../readstore/types.js';
import type { Dispatcher } from '../delivery/dispatcher.js';

const STREAMS = { streamPrefixes: ['item-', 'changelog-', 'webhook-'] };
/** Backoff before subscribing again after the subscription failed (a KurrentDB restart). */
export const RESUBSCRIBE_FIRST_MS = 250;
const RESUBSCRIBE_MAX_MS = 5_000;

export function createFollower(deps: {
  eventStore: EventStore;
  logger: Logger;
  /** one event's deliveries stored and queued; true when it stored or changed any */
  handle(event: RecordedEvent, active: Dispatcher): Promise<boolean>;
  leading(): boolean;
  checkpoint(): bigint;
  /** the event is handled: the checkpoint passes it, saved soon when `changed`, else later */
  handled(position: bigint, changed: boolean): void;
}) {
  const { logger } = deps;
  let subscription: Subscription | undefined;
  let wakeLoop: (() => void) | undefined;

  async function handleUntilDone(event: RecordedEvent, active: Dispatcher): Promise<boolean> {
    for (let failures = 0; deps.leading(); failures++) {
      try {
        return await deps.handle(event, active);
      } catch (error) {
        const wait = Math.min(30_000, 500 * 2 ** failures);
        logger.error('webhook worker cannot handle an event; retrying', {
          position: event.position,
          error: (error as Error).message,
          retryInMs: wait,
        });
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
    return false;
  }

  /** Delivers from the checkpoint for as long as this worker leads. */
  async function follow(active: Dispatcher): Promise<void> {
    for (let failures = 0; deps.leading(); failures++) {
      const events = deps.eventStore.subscribeToAll({
        after: deps.checkpoint(),
        filter: STREAMS,
      });
      subscription = events;
      let ended: unknown;
      try {
        for await (const event of events) {
          const changed = await handleUntilDone(event, active);
          if (!deps.leading()) return;
          failures = 0;
          deps.handled(event.position, changed);
        }
      } catch (error) {
        ended = error;
      }
      if (!deps.leading()) return;
      await events.close().catch(() => {});
      const wait = Math.min(RESUBSCRIBE_MAX_MS, RESUBSCRIBE_FIRST_MS * 2 ** failures);
      const fields = {
        error: ended instanceof Error ? ended.message : 'the subscription ended',
        from: deps.checkpoint().toString(),
        retryInMs: wait,
      };
      if (
        ended instanceof EventStoreUnavailableError ||
        ended instanceof ReadStoreUnavailableError
      ) {
        logger.warn('webhook worker subscription interrupted; resubscribing', fields);
      } else {
        logger.error('webhook worker subscription failed; resubscribing', fields);
      }
      await new Promise<void>((resolve) => {
        if (!deps.leading()) return resolve();
        const timer = setTimeout(resolve, wait);
        wakeLoop = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeLoop = undefined;
    }
  }

  return {
    follow,
    /** the worker stands down: the backoff ends now and the subscription closes */
    async interrupt(): Promise<void> {
      wakeLoop?.();
      await subscription?.close();
    },
    forget(): void {
      subscription = undefined;
    },
  };
}
