/**
 * How soon the worker's state is saved: the checkpoint, and with it (embedded store: in one
 * transaction with everything else written so far) the deliveries' state made durable.
 */
import type { Logger } from '../../platform/logger.js';
import type { ReadStore } from '../../readstore/types.js';
import { saveCheckpoint } from './state.js';

/**
 * Deliveries wait a quarter of a second, like the projection engine's flushes on the embedded
 * store (src/read/engine-flush.ts): a save flushes every document changed since the last one, on
 * the thread that answers requests. Alternating runs of update_item_status with one webhook
 * subscribed (6 rounds): 1,000 req/s saving within 20 ms, 1,203 within 250 ms, every round higher.
 */
export const PERSIST_SOON_MS = 250;
export const PERSIST_LATE_MS = 1_000;

export function createPersister(deps: {
  readStore: ReadStore;
  logger: Logger;
  /** the checkpoint in memory: it only ever passes events whose deliveries are stored */
  checkpoint(): bigint;
}) {
  const { readStore } = deps;
  let timer: NodeJS.Timeout | undefined;
  let due = 0;

  return {
    /**
     * Soon record the checkpoint and make the deliveries' state durable. Saving the checkpoint
     * late is safe: a crash replays from the last saved one and finds those deliveries there.
     *
     * `soon` when deliveries were stored or changed; an event that made none only moves the
     * checkpoint, and replaying it after a crash does nothing, so that waits up to a second. What
     * a crash loses of the last quarter second is made again: deliveries by replaying their
     * events, attempts' outcomes by sending those messages again (with the same `webhook-id`).
     */
    persist(when: 'soon' | 'late' = 'soon'): void {
      const delay = when === 'soon' ? PERSIST_SOON_MS : PERSIST_LATE_MS;
      const at = performance.now() + delay;
      if (timer && due <= at) return;
      clearTimeout(timer);
      due = at;
      timer = setTimeout(() => {
        timer = undefined;
        saveCheckpoint(readStore, deps.checkpoint())
          .then(() => readStore.flush())
          .catch((error) => deps.logger.error('webhook state flush failed', { error }));
      }, delay);
    },
    /** a planned save is dropped: the worker stands down and saves at once */
    cancel(): void {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
