/**
 * The webhook worker: subscribed to the event log from its own checkpoint — never driven by a
 * projection rebuild or replay — it turns events into deliveries (fan-out.ts) and hands them to
 * the dispatcher. At-least-once: the checkpoint moves only after an event's deliveries are
 * stored, and a delivery is marked delivered only after a 2xx, so a crash anywhere re-sends with
 * the same `webhook-id`, never loses a message.
 *
 * One worker delivers at a time: it holds a lease in the read store and renews it; a second
 * worker (another `npm run start:webhooks`) stands by and takes over when the lease runs out.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { webhookDecider, webhookStreamId } from '../../../commands/webhook/index.js';
import type { WebhookDoc } from '../../../projections/webhooks/document.js';
import {
  type EventStore,
  EventStoreUnavailableError,
  type RecordedEvent,
  type Subscription,
} from '../../eventstore/types.js';
import type { Logger } from '../../platform/logger.js';
import { type ReadStore, ReadStoreUnavailableError } from '../../readstore/types.js';
import type { CommandHandler } from '../../write/command-handler.js';
import type { WebhookClock } from '../clock.js';
import { createDispatcher, type Dispatcher, type DispatcherDeps } from '../delivery/dispatcher.js';
import { deliveriesOf, RETENTION_MS, setupDeliveries } from '../delivery/records.js';
import { createSender } from '../delivery/sender.js';
import type { TargetPolicy } from '../delivery/target.js';
import type { Composer } from '../messages/compose.js';
import type { SecretBox } from '../secrets.js';
import { createEventHandler } from './event-handler.js';
import { createFanOut } from './fan-out.js';
import { createPayloads } from './payloads.js';
import type { Lease } from '../../platform/lease.js';
import { loadCheckpoint, saveCheckpoint, workerLeaseIn } from './state.js';

export interface WorkerDeps {
  eventStore: EventStore;
  readStore: ReadStore;
  commandHandler: CommandHandler;
  waitFor(position: bigint): Promise<void>;
  composer: Composer;
  secrets: SecretBox;
  policy: TargetPolicy;
  clock: WebhookClock;
  concurrency: number;
  /** most attempts in flight over every webhook (WEBHOOK_MAX_IN_FLIGHT); absent: no such bound */
  maxInFlight?: number;
  logger: Logger;
  /** where the one-deliverer lease lives (Stores.lease); default: the read store */
  lease?: Lease;
  /** lease length and renewal period, real milliseconds (tests shorten them) */
  leaseMs?: number;
  renewMs?: number;
  /** how often the dispatcher looks for what other processes queued (dispatcher `pollMs`) */
  pollMs?: number;
  /** each delivery attempt's outcome and duration (metrics) */
  onAttempt?: DispatcherDeps['onAttempt'];
  consentHeld?: DispatcherDeps['consentHeld'];
}

export interface WebhookWorker {
  start(): Promise<void>;
  /** look for due deliveries now, when this process is the one delivering */
  wake(): void;
  status(): { delivering: boolean; checkpoint: string };
  stop(): Promise<void>;
}

const STREAMS = { streamPrefixes: ['item-', 'changelog-', 'webhook-'] };
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/**
 * How soon the worker's state is saved (`persist`). Deliveries wait a quarter of a second, like
 * the projection engine's flushes on the embedded store (src/read/engine-flush.ts): a save
 * flushes every document changed since the last one, on the thread that answers requests.
 * Alternating runs of update_item_status with one webhook subscribed (6 rounds): 1,000 req/s
 * saving within 20 ms, 1,203 within 250 ms, every round higher.
 */
export const PERSIST_SOON_MS = 250;
export const PERSIST_LATE_MS = 1_000;
/** Backoff before subscribing again after the subscription failed (a KurrentDB restart). */
export const RESUBSCRIBE_FIRST_MS = 250;
const RESUBSCRIBE_MAX_MS = 5_000;

export function createWebhookWorker(deps: WorkerDeps): WebhookWorker {
  const { readStore, logger } = deps;
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const leaseMs = deps.leaseMs ?? 15_000;
  const lease = deps.lease ?? workerLeaseIn(readStore);
  const renewMs = deps.renewMs ?? 5_000;
  let stopped = true;
  let leading = false;
  let checkpoint = 0n;
  let dispatcher: Dispatcher | undefined;
  let subscription: Subscription | undefined;
  let loop: Promise<void> | undefined;
  let wakeLoop: (() => void) | undefined;
  let leaseTimer: NodeJS.Timeout | undefined;
  let pruneTimer: NodeJS.Timeout | undefined;
  let persistTimer: NodeJS.Timeout | undefined;
  let persistDue = 0;
  let ticking: Promise<void> | undefined;

  const payloads = createPayloads(deps);
  const fanOut = createFanOut({
    readStore,
    composer: deps.composer,
    now: () => deps.clock.now(),
    waitFor: deps.waitFor,
    remember: payloads.remember,
  });
  const handle = createEventHandler({
    readStore,
    fanOut,
    clock: deps.clock,
    waitFor: deps.waitFor,
  });

  /**
   * Soon (embedded store: in one transaction with everything else written so far) record the
   * checkpoint and make the deliveries' state durable. The checkpoint in memory only ever passes
   * events whose deliveries are stored, so saving it late is safe; a crash replays from the
   * last saved one and finds those deliveries already there.
   *
   * `soon` when deliveries were stored or changed; an event that made none only moves the
   * checkpoint, and replaying it after a crash does nothing, so that waits up to a second. What a
   * crash loses of the last quarter second is made again: deliveries by replaying their events,
   * attempts' outcomes by sending those messages again (with the same `webhook-id`).
   */
  function persist(when: 'soon' | 'late' = 'soon'): void {
    const delay = when === 'soon' ? PERSIST_SOON_MS : PERSIST_LATE_MS;
    const due = performance.now() + delay;
    if (persistTimer && persistDue <= due) return;
    clearTimeout(persistTimer);
    persistDue = due;
    persistTimer = setTimeout(() => {
      persistTimer = undefined;
      saveCheckpoint(readStore, checkpoint)
        .then(() => readStore.flush())
        .catch((error) => logger.error('webhook state flush failed', { error }));
    }, delay);
  }

  /** false when the webhook stays on: its URL is no longer the one its attempts failed at */
  async function disable(hook: WebhookDoc, reason: string): Promise<boolean> {
    try {
      const result = await deps.commandHandler.handle(
        webhookStreamId(hook._ws, hook.id),
        webhookDecider,
        // the URL the attempts failed at (attempt.ts): a URL set since is not disabled for them
        { type: 'DisableWebhook', data: { reason, ifUrl: hook.url } },
        { actor: null, now: deps.clock.now() },
      );
      if (result.state.status === 'enabled') {
        logger.info('webhook kept on: its URL changed since the attempt', { webhook: hook.id });
        return false;
      }
      logger.warn('webhook disabled', { webhook: hook.id, reason });
    } catch (error) {
      logger.warn('could not disable webhook', {
        webhook: hook.id,
        error: (error as Error).message,
      });
    }
    return true;
  }

  async function handleUntilDone(event: RecordedEvent, active: Dispatcher): Promise<boolean> {
    for (let failures = 0; leading; failures++) {
      try {
        return await handle(event, active);
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

  /**
   * Delivers from the checkpoint for as long as this worker leads. A subscription that fails —
   * KurrentDB restarting or a dropped connection — is opened again from the checkpoint after a
   * backoff: a leader that stopped following would keep its lease and deliver nothing, and the
   * standby would never take over.
   */
  async function follow(active: Dispatcher): Promise<void> {
    for (let failures = 0; leading; failures++) {
      const events = deps.eventStore.subscribeToAll({ after: checkpoint, filter: STREAMS });
      subscription = events;
      let ended: unknown;
      try {
        for await (const event of events) {
          const changed = await handleUntilDone(event, active);
          if (!leading) return;
          checkpoint = event.position;
          failures = 0;
          persist(changed ? 'soon' : 'late');
        }
      } catch (error) {
        ended = error;
      }
      if (!leading) return;
      await events.close().catch(() => {});
      const wait = Math.min(RESUBSCRIBE_MAX_MS, RESUBSCRIBE_FIRST_MS * 2 ** failures);
      const fields = {
        error: ended instanceof Error ? ended.message : 'the subscription ended',
        from: checkpoint.toString(),
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
        if (!leading) return resolve();
        const timer = setTimeout(resolve, wait);
        wakeLoop = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeLoop = undefined;
    }
  }

  async function lead(): Promise<void> {
    leading = true;
    checkpoint = await loadCheckpoint(readStore);
    const active = createDispatcher({
      readStore,
      clock: deps.clock,
      sender: createSender(),
      policy: deps.policy,
      secrets: deps.secrets,
      payloadOf: payloads.payloadOf,
      concurrency: deps.concurrency,
      ...(deps.maxInFlight ? { maxInFlight: deps.maxInFlight } : {}),
      disable,
      persist,
      logger,
      onAttempt: deps.onAttempt,
      consentHeld: deps.consentHeld,
      ...(deps.pollMs ? { pollMs: deps.pollMs } : {}),
    });
    dispatcher = active;
    await active.start();
    void prune();
    pruneTimer = setInterval(() => void prune(), PRUNE_EVERY_MS);
    pruneTimer.unref();
    loop = follow(active);
    logger.info('webhook worker delivering', { from: checkpoint.toString() });
  }

  async function stepDown(): Promise<void> {
    leading = false;
    clearInterval(pruneTimer);
    wakeLoop?.();
    await subscription?.close();
    await loop;
    await dispatcher?.stop();
    subscription = undefined;
    loop = undefined;
    dispatcher = undefined;
    clearTimeout(persistTimer);
    persistTimer = undefined;
    await saveCheckpoint(readStore, checkpoint);
    await readStore.flush();
  }

  async function tick(): Promise<void> {
    if (stopped) return;
    try {
      const held = await lease.take(holder, Date.now(), leaseMs);
      if (stopped) return;
      if (held && !leading) {
        // a half-started worker would hold the lease and deliver nothing: undo and retry later
        await lead().catch(async (error) => {
          await stepDown().catch(() => {});
          throw error;
        });
      } else if (!held && leading) {
        logger.warn('webhook worker lost its lease; standing by');
        await stepDown();
      }
    } catch (error) {
      logger.error('webhook lease check failed', { error: (error as Error).message });
    }
  }

  async function prune(): Promise<void> {
    try {
      await deliveriesOf(readStore).deleteMany({
        status: { $in: ['succeeded', 'failed'] },
        lastAttemptAt: { $lt: deps.clock.now() - RETENTION_MS },
      });
    } catch (error) {
      logger.error('webhook delivery pruning failed', { error: (error as Error).message });
    }
  }

  return {
    async start() {
      stopped = false;
      await setupDeliveries(readStore);
      await tick();
      if (!leading) logger.info('webhook worker standing by: another worker holds the lease');
      const renew = () => {
        leaseTimer = setTimeout(() => {
          ticking = tick().finally(() => {
            if (!stopped) renew();
          });
        }, renewMs);
      };
      renew();
    },
    wake() {
      void dispatcher?.wake();
    },
    status() {
      return { delivering: leading, checkpoint: checkpoint.toString() };
    },
    async stop() {
      stopped = true;
      clearTimeout(leaseTimer);
      await ticking;
      if (leading) {
        // released even when the last save fails (a full disk): a standby would otherwise wait
        // out the lease before it delivers
        try {
          await stepDown();
        } finally {
          await lease.release(holder).catch(() => {});
        }
      }
    },
  };
}
