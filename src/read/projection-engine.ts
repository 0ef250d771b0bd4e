/**
 * The projection engine: one catch-up subscription to `$all` from the lowest projector
 * checkpoint (engine-run.ts), dispatching each event to every projector that has not seen it and
 * whose filter matches. Checkpoints advance in memory as events apply and are flushed to the read
 * store together with the projectors' writes (engine-flush.ts). On start, a read model another
 * projector version built is dropped and replayed (projector-versions.ts).
 *
 * `waitFor(position)` resolves once every projector has applied the log up to that position;
 * the HTTP layer awaits it before answering a write, which gives clients read-your-writes.
 * Every projector, not only those the write affects (DESIGN.md): waiting for fewer is not
 * measurably cheaper. Measured under bench:api's update_item_status load (2026-11-26): applying
 * an ItemStatusChanged took 34 µs over all 17 projectors, 20 µs of it the items read model and
 * 10 µs the audit trail — both affected — and 4 µs the other 15, against a 16 ms answer; and
 * checkpoints are flushed together, so an API process polling them could not see a subset
 * earlier either.
 *
 * `observe(listener)` tells a listener of each event once every projector has applied it, before
 * the waits on it are released: a cache over the read models (the board's pages) learns of a
 * change before any write's answer says it was made.
 *
 * A store that cannot be reached pauses the engine instead of stopping it (outage.ts); any
 * other error stops it (a bug to see, not to retry).
 */
import { checkpointId, type Projector } from '../../projections/shared/projector.js';
import type { EventStore, RecordedEvent, Subscription } from '../eventstore/types.js';
import { matchesFilter } from '../eventstore/types.js';
import type { ReadStore } from '../readstore/types.js';
import { createFlusher, EMBEDDED_FLUSH_INTERVAL_MS } from './engine-flush.js';
import { runSubscription } from './engine-run.js';
import { createEngineWaits } from './engine-waits.js';
import {
  type ProjectionsStatus,
  type ProjectorCheckpoint,
  projectorLags,
} from './projector-lag.js';
import { restoreCheckpoints, sayWhenRebuilt } from './projector-versions.js';

export interface ProjectionEngineOptions {
  eventStore: EventStore;
  readStore: ReadStore;
  projectors: readonly Projector[];
  /** flush checkpoints and writes after this many events even while catching up */
  flushEvery?: number;
  /**
   * least time between two flushes while events keep coming (the first after a quiet spell is
   * immediate). Default: EMBEDDED_FLUSH_INTERVAL_MS on the embedded read store; 0 elsewhere,
   * because an API process in another role polls the flushed checkpoints for read-your-writes.
   * Durability is the event log's: a crash only replays the events after the last flushed
   * checkpoint.
   */
  flushIntervalMs?: number;
  /** how long `waitFor` waits before failing with ProjectionTimeout */
  waitTimeoutMs?: number;
  logger?: Pick<Console, 'error' | 'info'>;
}

export { EMBEDDED_FLUSH_INTERVAL_MS } from './engine-flush.js';
export type { ProjectorStatus } from './projector-lag.js';

export type ProjectionEngine = ReturnType<typeof createProjectionEngine>;

/** told of each applied event; synchronous and cheap: it runs in the engine's loop */
export type AppliedListener = (event: RecordedEvent) => void;

export function createProjectionEngine(options: ProjectionEngineOptions) {
  const { eventStore, readStore, projectors } = options;
  const logger = options.logger ?? console;
  const names = new Set<string>();
  for (const p of projectors) {
    if (names.has(p.name)) throw new Error(`two projectors are named ${p.name}`);
    names.add(p.name);
  }
  // by checkpointId: a projector's name and version
  const checkpoints = new Map<string, bigint>();
  const ids = new Map(projectors.map((p) => [p, checkpointId(p)]));
  const idOf = (p: Projector): string => ids.get(p)!;
  for (const p of projectors)
    readStore.claim(idOf(p), p.collections, () => checkpoints.get(idOf(p)));
  const waits = createEngineWaits(options.waitTimeoutMs ?? 10_000);
  const listeners: AppliedListener[] = [];
  let subscription: Subscription | undefined;
  let loop: Promise<void> | undefined;
  let closing = false;
  const current = (): ProjectorCheckpoint[] =>
    projectors.map((p) => ({ name: p.name, checkpoint: checkpoints.get(idOf(p)) ?? 0n }));

  function fail(error: Error): void {
    // the stack too: an error that stops the engine is a bug to find (or one to map as transient)
    logger.error(`projection engine stopped: ${error.message}\n${error.stack ?? ''}`);
    waits.failed(error);
  }

  const flusher = createFlusher({
    readStore,
    checkpoints,
    flushEvery: options.flushEvery ?? 5_000,
    flushIntervalMs:
      options.flushIntervalMs ??
      (readStore.adapter === 'embedded' ? EMBEDDED_FLUSH_INTERVAL_MS : 0),
    logger,
    closing: () => closing,
    fail,
  });

  async function apply(event: RecordedEvent): Promise<void> {
    for (const projector of projectors) {
      const at = checkpoints.get(idOf(projector)) ?? 0n;
      if (event.position <= at) continue;
      if (matchesFilter(event, projector.filter)) await projector.apply(event, readStore);
      checkpoints.set(idOf(projector), event.position);
    }
    for (const listener of listeners) listener(event);
    flusher.counted();
    waits.reached(event.position);
    await flusher.afterApply();
  }

  function lowestCheckpoint(): bigint {
    let lowest: bigint | undefined;
    for (const p of projectors) {
      const at = checkpoints.get(idOf(p)) ?? 0n;
      if (lowest === undefined || at < lowest) lowest = at;
    }
    return lowest ?? 0n;
  }

  async function subscribe(): Promise<void> {
    closing = false;
    const from = lowestCheckpoint();
    waits.subscribedFrom(from);
    loop = runSubscription(
      {
        eventStore,
        apply,
        subscribed: (opened) => {
          subscription = opened;
        },
        closing: () => closing,
        lowestCheckpoint,
        fail,
        logger,
      },
      from,
    );
  }

  async function unsubscribe(): Promise<void> {
    closing = true;
    await subscription?.close();
    await loop;
    await flusher.settleQuiet();
    await flusher.flush();
  }

  return {
    async start(): Promise<void> {
      waits.started();
      const startedAt = performance.now();
      const rebuilt = await restoreCheckpoints(readStore, projectors, checkpoints, logger);
      if (rebuilt.length > 0) {
        // a rebuilt read model starts at 0, so the replay begins there: it has caught up when
        // every projector has reached the head found now (a waiter: no cost per event)
        const head = await eventStore.headPosition();
        const appliedBefore = flusher.applied();
        sayWhenRebuilt(logger, {
          ids: rebuilt,
          head,
          startedAt,
          reached: head > 0n ? waits.untilRebuilt(head) : Promise.resolve(),
          replayed: () => flusher.applied() - appliedBefore,
        });
      }
      await subscribe();
    },

    waitFor: waits.waitFor,
    caughtUpTo: waits.caughtUpTo,

    /** `listener` hears of every event applied from now on (see the top of this file) */
    observe(listener: AppliedListener): void {
      listeners.push(listener);
    },

    /**
     * Drop one read model and replay the whole log into it. Before `start`, only the drop: the
     * start then replays it, and never applies the events after its old checkpoint to a read
     * model about to go (`rebuild` opens the store without reading what it drops).
     */
    async rebuild(name: string): Promise<void> {
      const projector = projectors.find((p) => p.name === name);
      if (!projector) throw new Error(`no projector named ${name}`);
      const started = loop !== undefined;
      if (started) await unsubscribe();
      for (const collection of projector.collections) await readStore.dropCollection(collection);
      await readStore.deleteCheckpoint(idOf(projector));
      checkpoints.delete(idOf(projector));
      if (!started) return;
      await projector.setup?.(readStore);
      await subscribe();
    },

    /** every projector's checkpoint in this process, as it is now */
    checkpoints: current,

    async status(): Promise<ProjectionsStatus> {
      const lags = await projectorLags(eventStore, current());
      const failure = waits.failure();
      if (failure) return { ...lags, stopped: failure.message };
      const flushFailure = flusher.failure();
      return flushFailure === null ? lags : { ...lags, flushFailure };
    },

    /** Position every projector has applied up to (in this process). */
    position: waits.position,

    async stop(): Promise<void> {
      await unsubscribe();
      waits.stopped();
    },
  };
}
