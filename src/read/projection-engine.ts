/**
 * The projection engine: one catch-up subscription to `$all` from the lowest projector
 * checkpoint, dispatching each event to every projector that has not seen it and whose filter
 * matches. Checkpoints advance in memory as events apply and are flushed to the read store
 * together with the projectors' writes (embedded: one SQLite transaction), every
 * `flushEvery` events and whenever the subscription goes quiet.
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
 * A store that cannot be reached (ReadStoreUnavailableError, EventStoreUnavailableError: a
 * MongoDB or KurrentDB restart) pauses the engine instead of stopping it: it subscribes again
 * from its checkpoints after a backoff (250 ms doubling to 5 s) until the store answers, and
 * the projectors' position guards skip what a projector had already applied. Any other error
 * stops it (a bug to see, not to retry).
 */
import { checkpointId, type Projector } from '../../projections/shared/projector.js';
import type { EventStore, RecordedEvent, Subscription } from '../eventstore/types.js';
import { matchesFilter } from '../eventstore/types.js';
import { EventStoreUnavailableError } from '../eventstore/types.js';
import { ReadStoreUnavailableError } from '../readstore/types.js';
import type { ReadStore } from '../readstore/types.js';
import {
  type ProjectionsStatus,
  type ProjectorCheckpoint,
  projectorLags,
} from './projector-lag.js';
import { dropOtherVersion, sayWhenRebuilt } from './projector-versions.js';
import { ProjectionTimeout, WaiterList } from './waiters.js';

const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5_000;

const unreachable = (error: unknown): boolean =>
  error instanceof ReadStoreUnavailableError || error instanceof EventStoreUnavailableError;

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

/**
 * The embedded read store's flush is a synchronous SQLite transaction on the thread that answers
 * requests, and it rewrites every document changed since the last one: under a stream of writes
 * to the same items each flush costs about the same whether it covers 50 ms or 250 ms of them.
 * Measured with bench:api's update_item_status (alternating runs, four services on their own
 * seeded data, 4 rounds): 50 ms 3,012 req/s (p99 34–68 ms), 100 ms 3,440, 250 ms 3,699 (p99
 * 30–41 ms), 500 ms 3,759; against the previous code on a busier machine: 2,503 → 2,757 in 6
 * rounds (+10 %), 2,396 → 2,676 in 10 (+12 %, CPU per request −6 %). Past 250 ms the gain is
 * within the machine's noise while a crash replays more, so 250 ms. Read-your-writes is
 * unaffected: it waits for the documents in memory, not on disk.
 */
export const EMBEDDED_FLUSH_INTERVAL_MS = 250;

export type { ProjectorStatus } from './projector-lag.js';

export type ProjectionEngine = ReturnType<typeof createProjectionEngine>;

export function createProjectionEngine(options: ProjectionEngineOptions) {
  const { eventStore, readStore, projectors } = options;
  const flushEvery = options.flushEvery ?? 5_000;
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
  const waiters = new WaiterList();
  let seen = 0n; // every projector has applied the log up to here
  let subscription: Subscription | undefined;
  let loop: Promise<void> | undefined;
  const flushIntervalMs =
    options.flushIntervalMs ?? (readStore.adapter === 'embedded' ? EMBEDDED_FLUSH_INTERVAL_MS : 0);
  let unflushed = 0;
  // events applied and handed to a flush: counted per flush, not per event (+ unflushed: all)
  let handedToFlush = 0;
  let lastFlushAt = Number.NEGATIVE_INFINITY;
  let quietFlush: { timer: NodeJS.Immediate | NodeJS.Timeout; immediate: boolean } | undefined;
  // the quiet flush under way: stop() waits for it, or the stores close beneath it
  let quietFlushing: Promise<void> | undefined;
  let failure: Error | undefined;
  // stop() ran: the waits without a timeout end (false) rather than fail
  let stopped = false;
  const current = (): ProjectorCheckpoint[] =>
    projectors.map((p) => ({ name: p.name, checkpoint: checkpoints.get(idOf(p)) ?? 0n }));

  /** why the last flush of the read models failed, while it does (readiness) */
  let flushFailure: string | null = null;

  /**
   * The flush under way. The next one waits for it: two in flight can land out of order (on
   * MongoDB, two pooled connections), and the older checkpoints stored last hold every API
   * process's read-your-writes wait below the newer event until another event comes.
   */
  let flushing: Promise<void> | undefined;

  async function flush(): Promise<void> {
    while (flushing) await flushing.catch(() => {});
    if (unflushed === 0) return;
    const pending = unflushed;
    unflushed = 0;
    handedToFlush += pending;
    lastFlushAt = performance.now();
    const mine = (async () => readStore.flush(new Map(checkpoints)))();
    flushing = mine;
    try {
      await mine;
      flushFailure = null;
    } catch (error) {
      unflushed += pending; // flushed with the next one
      handedToFlush -= pending;
      if (unreachable(error)) flushFailure = (error as Error).message;
      throw error;
    } finally {
      if (flushing === mine) flushing = undefined;
    }
  }

  function runQuietFlush(): void {
    quietFlush = undefined;
    quietFlushing = flush().catch((error) => {
      if (closing) return; // unsubscribe() flushes what this one could not
      if (!unreachable(error)) return fail(error as Error);
      logger.error(`projection engine: flush failed (${(error as Error).message}); retrying`);
      quietFlush = { timer: setTimeout(runQuietFlush, RETRY_MAX_MS), immediate: false };
    });
  }

  function scheduleQuietFlush(): void {
    if (quietFlush) return;
    const wait = lastFlushAt + flushIntervalMs - performance.now();
    quietFlush =
      wait <= 0
        ? { timer: setImmediate(runQuietFlush), immediate: true }
        : { timer: setTimeout(runQuietFlush, wait), immediate: false };
  }

  function cancelQuietFlush(): void {
    if (!quietFlush) return;
    if (quietFlush.immediate) clearImmediate(quietFlush.timer as NodeJS.Immediate);
    else clearTimeout(quietFlush.timer as NodeJS.Timeout);
    quietFlush = undefined;
  }

  function fail(error: Error): void {
    failure = error;
    // the stack too: an error that stops the engine is a bug to find (or one to map as transient)
    logger.error(`projection engine stopped: ${error.message}\n${error.stack ?? ''}`);
    waiters.rejectAll(error);
  }

  async function apply(event: RecordedEvent): Promise<void> {
    for (const projector of projectors) {
      const at = checkpoints.get(idOf(projector)) ?? 0n;
      if (event.position <= at) continue;
      if (matchesFilter(event, projector.filter)) await projector.apply(event, readStore);
      checkpoints.set(idOf(projector), event.position);
    }
    seen = event.position;
    unflushed++;
    waiters.release(seen);
    if (unflushed >= flushEvery) await flush();
    else scheduleQuietFlush();
  }

  let closing = false;

  async function run(from: bigint): Promise<void> {
    let delay = RETRY_FIRST_MS;
    let after = from;
    for (;;) {
      subscription = eventStore.subscribeToAll(after > 0n ? { after } : {});
      try {
        for await (const event of subscription) {
          await apply(event);
          delay = RETRY_FIRST_MS;
        }
        return;
      } catch (error) {
        if (closing) return; // our own close(), not a failure
        if (!unreachable(error)) return fail(error as Error);
        logger.error(
          `projection engine paused: ${(error as Error).message}; resuming in ${delay} ms`,
        );
        await subscription.close().catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, delay));
        if (closing) return;
        delay = Math.min(delay * 2, RETRY_MAX_MS);
        after = lowestCheckpoint();
      }
    }
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
    seen = from;
    loop = run(from);
  }

  async function unsubscribe(): Promise<void> {
    closing = true;
    await subscription?.close();
    await loop;
    cancelQuietFlush();
    await quietFlushing;
    await flush();
  }

  return {
    async start(): Promise<void> {
      stopped = false;
      const startedAt = performance.now();
      const stored = await readStore.checkpoints();
      const rebuilt: string[] = [];
      for (const p of projectors) {
        const at = stored.get(idOf(p));
        if (at !== undefined) checkpoints.set(idOf(p), at);
        else if (await dropOtherVersion(readStore, p, stored, logger)) rebuilt.push(idOf(p));
        await p.setup?.(readStore);
      }
      if (rebuilt.length > 0) {
        // a rebuilt read model starts at 0, so the replay begins there: it has caught up when
        // every projector has reached the head found now (a waiter: no cost per event)
        const head = await eventStore.headPosition();
        const appliedBefore = handedToFlush + unflushed;
        sayWhenRebuilt(logger, {
          ids: rebuilt,
          head,
          startedAt,
          reached: head > 0n ? waiters.add(head) : Promise.resolve(),
          replayed: () => handedToFlush + unflushed - appliedBefore,
        });
      }
      await subscribe();
    },

    /** Resolve once every projector has applied the log up to `position`. */
    waitFor(position: bigint, timeoutMs = options.waitTimeoutMs ?? 10_000): Promise<void> {
      if (failure) return Promise.reject(failure);
      if (position <= seen) return Promise.resolve();
      return waiters.add(position, { timeoutMs });
    },

    /**
     * True once every projector has applied the log up to `position`, however long that takes
     * (the rebuild after an upgrade outlasts any request's wait); false once `signal` aborts or
     * the engine stops first. Not read-your-writes: nothing times out, nothing is counted.
     */
    async caughtUpTo(position: bigint, signal?: AbortSignal): Promise<boolean> {
      if (failure) throw failure;
      if (position <= seen) return true;
      if (stopped || signal?.aborted) return false;
      try {
        await waiters.add(position, { signal });
        return true;
      } catch (error) {
        if (stopped || signal?.aborted) return false;
        throw error;
      }
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
      if (failure) return { ...lags, stopped: failure.message };
      return flushFailure === null ? lags : { ...lags, flushFailure };
    },

    /** Position every projector has applied up to (in this process). */
    position(): bigint {
      return seen;
    },

    async stop(): Promise<void> {
      await unsubscribe();
      stopped = true;
      waiters.rejectAll(new ProjectionTimeout('projection engine stopped'));
    },
  };
}
