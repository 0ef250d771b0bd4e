/**
 * Finding due deliveries in the store: the dispatcher's lanes hold only a window of each
 * webhook's deliveries, and the rest — retries, what waited behind a full lane, what another
 * process queued — is read here, oldest due first, when a lane empties, when a retry's time (on
 * the injectable clock) has come, when a test clock jumps, when an operation asks, and every few
 * seconds. One scan at a time; one asked for while another runs runs once more after it.
 */
import { webhooksOf } from '../../../projections/webhooks/document.js';
import type { Logger } from '../../platform/logger.js';
import type { ReadStore } from '../../readstore/types.js';
import type { WebhookClock } from '../clock.js';
import { type DeliveryDoc, deliveriesOf } from './records.js';

/** One webhook's deliveries in memory (dispatcher.ts). */
export interface Lane {
  queue: DeliveryDoc[];
  inFlight: number;
  /** the streams (items, products) with a message in flight: one at a time each, in order */
  streams: Set<string>;
  /** the last scan found as many as it asked for: more may be due */
  maybeMore: boolean;
}

const MAX_TIMER_MS = 60 * 60 * 1000;

export function createScanner(deps: {
  readStore: ReadStore;
  clock: WebhookClock;
  logger: Logger;
  /** most attempts in flight per webhook */
  concurrency: number;
  /** most deliveries a lane holds in memory beyond those in flight */
  window: number;
  lanes: Map<string, Lane>;
  /** webhooks the dispatcher disabled, until the worker sees them enabled again */
  paused: ReadonlySet<string>;
  enqueue(doc: DeliveryDoc): void;
  stopped(): boolean;
}) {
  const { readStore, clock, lanes, window } = deps;
  let scanning: Promise<void> | null = null;
  let scanAgain = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;

  /** Enqueue what is due for every enabled webhook; then sleep until the next retry. */
  function scan(): Promise<void> {
    if (deps.stopped()) return Promise.resolve();
    if (scanning) {
      scanAgain = true;
      return scanning;
    }
    scanning = (async () => {
      try {
        do {
          scanAgain = false;
          await scanOnce();
        } while (scanAgain && !deps.stopped());
      } catch (error) {
        deps.logger.error('webhook scan failed', { error: (error as Error).message });
      } finally {
        scanning = null;
      }
    })();
    return scanning;
  }

  async function scanOnce(): Promise<void> {
    const now = clock.now();
    const hooks = await webhooksOf(readStore).find({ enabled: true, _deleted: false });
    for (const hook of hooks) {
      if (deps.stopped()) return;
      if (deps.paused.has(hook._id)) continue;
      const lane = lanes.get(hook._id);
      if (lane && lane.queue.length >= deps.concurrency) continue;
      const due = await deliveriesOf(readStore).find(
        { _hook: hook._id, status: 'pending', nextAttemptAt: { $lte: now } },
        { sort: { nextAttemptAt: 1, _order: 1 }, limit: window },
      );
      for (const doc of due) deps.enqueue(doc);
      const read = lanes.get(hook._id);
      if (!read) continue;
      read.maybeMore = due.length === window;
      if (!read.maybeMore && read.inFlight === 0 && read.queue.length === 0) lanes.delete(hook._id);
    }
    const next = await deliveriesOf(readStore).findOne(
      { status: 'pending', nextAttemptAt: { $gt: now } },
      { sort: { nextAttemptAt: 1 } },
    );
    if (next?.nextAttemptAt != null) planTimer(next.nextAttemptAt);
  }

  function planTimer(at: number): void {
    if (deps.stopped() || at >= timerAt) return;
    clearTimeout(timer);
    timerAt = at;
    const wait = Math.min(Math.max(0, at - clock.now()), MAX_TIMER_MS);
    timer = setTimeout(() => {
      timerAt = Number.POSITIVE_INFINITY;
      void scan();
    }, wait);
  }

  return {
    scan,
    /** scan when a retry is due at `at` (on the clock), unless one is planned sooner */
    planTimer,
    /** the clock jumped: what the timer waits for may be due now */
    replan(): void {
      clearTimeout(timer);
      timerAt = Number.POSITIVE_INFINITY;
      void scan();
    },
    /** a delivery was stored that a scan under way may have read the store before */
    missed(): void {
      if (scanning) scanAgain = true;
    },
    /** no timer any more; resolves once a scan under way has ended */
    async stop(): Promise<void> {
      clearTimeout(timer);
      await scanning;
    },
  };
}
