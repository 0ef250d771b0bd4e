/**
 * The webhook worker: subscribed to the event log from its own checkpoint — never driven by a
 * projection rebuild or replay (follow.ts) — it turns events into deliveries (fan-out.ts) and
 * hands them to the dispatcher. At-least-once: the checkpoint moves only after an event's
 * deliveries are stored (saved soon after, persist.ts), and a delivery is marked delivered only
 * after a 2xx, so a crash anywhere re-sends with the same `webhook-id`, never loses a message.
 *
 * One worker delivers at a time: it holds a lease in the read store and renews it; a second
 * worker (another `npm run start:webhooks`) stands by and takes over when the lease runs out.
 */
import type { EventStore } from '../../eventstore/types.js';
import type { Logger } from '../../platform/logger.js';
import type { ReadStore } from '../../readstore/types.js';
import type { CommandHandler } from '../../write/command-handler.js';
import type { WebhookClock } from '../clock.js';
import { createDispatcher, type Dispatcher, type DispatcherDeps } from '../delivery/dispatcher.js';
import { deliveriesOf, RETENTION_MS, setupDeliveries } from '../delivery/records.js';
import { createSender } from '../delivery/sender.js';
import type { TargetPolicy } from '../delivery/target.js';
import type { Composer } from '../messages/compose.js';
import type { SecretBox } from '../secrets.js';
import { disableWebhook } from './disable.js';
import { createEventHandler } from './event-handler.js';
import { createFanOut } from './fan-out.js';
import { createFollower } from './follow.js';
import { createPayloads } from './payloads.js';
import { createPersister } from './persist.js';
import { holderLabel, type Lease } from '../../platform/lease.js';
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

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** what holds the delivery lease, as its holder's label says */
export const WORKER_KIND = 'webhook worker';

export function createWebhookWorker(deps: WorkerDeps): WebhookWorker {
  const { readStore, logger } = deps;
  // the form every lease holder takes (platform/lease.ts), so import-workspace's refusal names
  // this worker as rebuild's names a projector
  const holder = holderLabel(WORKER_KIND);
  const leaseMs = deps.leaseMs ?? 15_000;
  const lease = deps.lease ?? workerLeaseIn(readStore);
  const renewMs = deps.renewMs ?? 5_000;
  let stopped = true;
  let leading = false;
  let checkpoint = 0n;
  let dispatcher: Dispatcher | undefined;
  let loop: Promise<void> | undefined;
  let leaseTimer: NodeJS.Timeout | undefined;
  let pruneTimer: NodeJS.Timeout | undefined;
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

  const { persist, cancel: cancelPersist } = createPersister({
    readStore,
    logger,
    checkpoint: () => checkpoint,
  });
  const follower = createFollower({
    eventStore: deps.eventStore,
    logger,
    handle,
    leading: () => leading,
    checkpoint: () => checkpoint,
    handled(position, changed) {
      checkpoint = position;
      persist(changed ? 'soon' : 'late');
    },
  });

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
      disable: (hook, reason) => disableWebhook(deps, hook, reason),
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
    loop = follower.follow(active);
    logger.info('webhook worker delivering', { from: checkpoint.toString() });
  }

  async function stepDown(): Promise<void> {
    leading = false;
    clearInterval(pruneTimer);
    await follower.interrupt();
    await loop;
    await dispatcher?.stop();
    follower.forget();
    loop = undefined;
    dispatcher = undefined;
    cancelPersist();
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
      if (!leading) {
        const held = await lease.holder(Date.now()).catch(() => undefined);
        logger.info('webhook worker standing by: another worker holds the lease', {
          ...(held ? { heldBy: held.holder } : {}),
        });
      }
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
