/**
 * Sends due deliveries. Each webhook has its own lane with at most `concurrency` attempts in
 * flight, so one slow or dead receiver never holds up another, and all lanes together have at
 * most `maxInFlight` (places.ts). Fresh deliveries are handed over directly by the worker while
 * the lane has room (`handOver`); the rest, and retries, come back through a scan of the store
 * (scan.ts) when their time (on the injectable clock) has come, when a lane empties, when a test
 * clock jumps, when an operation asks (`wake`), and every few seconds for changes made by
 * another process.
 */
import type { WebhookDoc } from '../../../projections/webhooks/document.js';
import type { Logger } from '../../platform/logger.js';
import type { ReadStore } from '../../readstore/types.js';
import type { WebhookClock } from '../clock.js';
import type { SecretBox } from '../secrets.js';
import { type AttemptDeps, attemptFields, createAttempts } from './attempt.js';
import { createAttemptPlaces } from './places.js';
import type { DeliveryDoc } from './records.js';
import { createScanner, type Lane } from './scan.js';
import type { Sender } from './sender.js';
import type { TargetPolicy } from './target.js';

export interface DispatcherDeps {
  readStore: ReadStore;
  clock: WebhookClock;
  sender: Sender;
  policy: TargetPolicy;
  secrets: SecretBox;
  /** the body of a log message (rebuilt from the log after a restart) */
  payloadOf(doc: DeliveryDoc): Promise<string | null>;
  /** most attempts in flight per webhook */
  concurrency: number;
  /** most attempts in flight over every webhook (WEBHOOK_MAX_IN_FLIGHT); absent: no such bound */
  maxInFlight?: number;
  /** switch the webhook off (a command on its stream); false: it stays on (its URL changed) */
  disable(hook: WebhookDoc, reason: string): Promise<boolean>;
  /** make recent writes durable soon (embedded store) */
  persist(): void;
  logger: Logger;
  /** real-time safety net for changes made by other processes */
  pollMs?: number;
  onAttempt?: AttemptDeps['onAttempt'];
  consentHeld?: AttemptDeps['consentHeld'];
}

export function createDispatcher(deps: DispatcherDeps) {
  const { readStore, clock } = deps;
  const attempts = createAttempts(deps);
  const lanes = new Map<string, Lane>();
  /** most deliveries a lane holds in memory beyond those in flight */
  const window = deps.concurrency * 2;
  const places = createAttemptPlaces(deps.maxInFlight ?? Number.POSITIVE_INFINITY);
  let warnedFullAt = Number.NEGATIVE_INFINITY;
  const busy = new Set<string>();
  /** webhooks this dispatcher disabled, until the worker sees them enabled again */
  const paused = new Set<string>();
  const running = new Set<Promise<void>>();
  let stopped = true;
  const { scan, planTimer, ...scanner } = createScanner({
    readStore,
    clock,
    logger: deps.logger,
    concurrency: deps.concurrency,
    window,
    lanes,
    paused,
    enqueue,
    stopped: () => stopped,
  });
  let poll: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;

  function laneOf(hookKey: string): Lane {
    let lane = lanes.get(hookKey);
    if (!lane) {
      lane = { queue: [], inFlight: 0, streams: new Set(), maybeMore: false };
      lanes.set(hookKey, lane);
    }
    return lane;
  }

  function enqueue(doc: DeliveryDoc): void {
    if (stopped || busy.has(doc._id) || paused.has(doc._hook)) return;
    busy.add(doc._id);
    const lane = laneOf(doc._hook);
    lane.queue.push(doc);
    pump(doc._hook, lane);
  }

  /**
   * A fresh delivery the worker hands over. A lane already holding a window's worth waits for
   * the scan instead, which reads from the store what is due, oldest first, once the lane has
   * emptied: a receiver that holds every request for its 15 s drains about one message every two
   * seconds at the default WEBHOOK_CONCURRENCY, and the deliveries of a busy workspace piled up
   * in memory without bound. Once one waits there, the later ones wait too, so an item's
   * messages still go in order.
   */
  function handOver(doc: DeliveryDoc): void {
    const lane = lanes.get(doc._hook);
    if (lane && (lane.maybeMore || lane.queue.length >= window)) {
      lane.maybeMore = true;
      // a scan under way may have read the store before this delivery was in it
      scanner.missed();
      return;
    }
    enqueue(doc);
  }

  /**
   * Starts queued attempts up to the lane's concurrency, oldest first, but never two messages of
   * one item (or product) at once: a receiver that answers in time gets each item's messages in
   * their order; only a retry can let a later one overtake (README).
   */
  function pump(hookKey: string, lane: Lane): void {
    for (let at = 0; !stopped && lane.inFlight < deps.concurrency && at < lane.queue.length; ) {
      const doc = lane.queue[at]!;
      const stream = doc._source?.streamId;
      if (stream !== undefined && lane.streams.has(stream)) {
        at++;
        continue;
      }
      if (!places.take()) {
        // the doc stays first in line in its lane; the lane gets a place when one is free
        places.wait(hookKey);
        warnFull();
        return;
      }
      lane.queue.splice(at, 1);
      if (stream !== undefined) lane.streams.add(stream);
      lane.inFlight++;
      let again = false;
      const run: Promise<void> = attempt(doc)
        .then((requeued) => {
          again = requeued;
        })
        .catch((error) =>
          deps.logger.error('webhook attempt failed to record', {
            delivery: doc._id,
            error: (error as Error).message,
          }),
        )
        .finally(() => {
          places.free();
          running.delete(run);
          busy.delete(doc._id);
          if (stream !== undefined) lane.streams.delete(stream);
          lane.inFlight--;
          // the lane keeps `maybeMore` until the scan has read it: a delivery handed over before
          // then waits in the store behind the older ones, so an item's messages keep their order
          // queued again while in flight (attempt.ts `requeued`): due now, and no longer busy
          if (again || (lane.queue.length === 0 && lane.maybeMore)) void scan();
          if (lane.inFlight === 0 && lane.queue.length === 0 && !lane.maybeMore)
            lanes.delete(hookKey);
          else places.wait(hookKey);
          // the freed place goes to the lane that waited for one longest, this one in its turn
          for (const next of places.turns()) {
            const waiting = lanes.get(next);
            if (waiting) pump(next, waiting);
          }
        });
      running.add(run);
    }
  }

  /** one line a minute at most while every place is taken: the operator's sign to raise it */
  function warnFull(): void {
    const now = Date.now();
    if (now - warnedFullAt < 60_000) return;
    warnedFullAt = now;
    deps.logger.warn('webhook attempts wait: WEBHOOK_MAX_IN_FLIGHT attempts are in flight', {
      inFlight: places.taken(),
    });
  }

  /** true when the delivery is due now: queued again while in flight, or its 410 came from a replaced URL */
  async function attempt(queued: DeliveryDoc): Promise<boolean> {
    const result = await attempts.run(queued, (hookKey) => paused.has(hookKey));
    let keptOn = false;
    switch (result.kind) {
      case 'skipped':
        return false;
      case 'stopped':
        deps.logger.info(
          'webhook attempt cut by the stop; it is sent again after the next start',
          attemptFields(queued),
        );
        return false;
      case 'delivered':
        if (result.recovered) void scan();
        break;
      case 'retry':
        if (result.at !== null) planTimer(result.at);
        if (result.disable) await pause(result.hook, result.disable);
        break;
      case 'gone':
        // kept on (its URL changed since the attempt): the message is due now, at the new URL
        keptOn = !(await pause(result.hook, result.disable));
        break;
      default: {
        const _exhaustive: never = result;
      }
    }
    deps.persist();
    return result.requeued || keptOn;
  }

  /** false when the webhook stays on after all: what waited in its lane is looked for again */
  async function pause(hook: WebhookDoc, reason: string): Promise<boolean> {
    paused.add(hook._id);
    const lane = lanes.get(hook._id);
    if (lane) {
      for (const doc of lane.queue) busy.delete(doc._id);
      lane.queue = [];
    }
    if (await deps.disable(hook, reason)) return true;
    paused.delete(hook._id);
    void scan();
    return false;
  }

  return {
    async start(): Promise<void> {
      stopped = false;
      unsubscribe = clock.onAdvance?.(scanner.replan);
      poll = setInterval(() => void scan(), deps.pollMs ?? 5_000);
      poll.unref();
      await scan();
    },
    enqueue: handOver,
    /** deliveries held in memory, waiting for a place in their lane (the rest wait in the store) */
    queued(): number {
      let count = 0;
      for (const lane of lanes.values()) count += lane.queue.length;
      return count;
    },
    /** look for due deliveries now (after a redeliver, a recover, a re-enable) */
    wake(): Promise<void> {
      return scan();
    },
    /** the worker saw the webhook enabled again */
    resume(hookKey: string): void {
      paused.delete(hookKey);
    },
    /** the webhook was deleted or disabled: forget what waits in its lane */
    drop(hookKey: string): void {
      const lane = lanes.get(hookKey);
      if (!lane) return;
      for (const doc of lane.queue) busy.delete(doc._id);
      lane.queue = [];
    },
    async stop(): Promise<void> {
      stopped = true;
      const scanEnded = scanner.stop();
      clearInterval(poll);
      unsubscribe?.();
      // attempts in flight end now (connection closed); not the receivers' failures, they are
      // recorded as nothing and sent again after the next start (attempt.ts `stopped`)
      deps.sender.close();
      await scanEnded;
      await Promise.allSettled([...running]);
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
