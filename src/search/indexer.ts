/**
 * The background half of the vector index: a write stages its text (a cheap read-store write,
 * no model involved) and this loop embeds pending texts in batches, off the request path.
 *
 * Delay until search sees a new or edited text: at most `delayMs` (batching wait, default
 * 100 ms) plus the time to embed the batches queued ahead of it — one batch of `batchSize`
 * (default 32) takes ~0.5 s on the bundled encoder (~16 ms a text on 2 cores), so in steady
 * state a new item is searchable within ~0.6 s. A backlog (a rebuild after a provider change,
 * a bulk import) is drained batch after batch; texts staged meanwhile join the next batch.
 *
 * Hook it to the event log with a Projector whose `apply` calls `enqueue` / `remove`, and call
 * `start()` once at boot so texts left pending by a crash or a provider change are embedded.
 */
import type { Logger } from '../platform/logger.js';
import type { VectorIndex } from './vector-index.js';

export interface IndexerOptions {
  index: VectorIndex;
  /** wait after the first staged text so a burst shares one embedding call; default 100 */
  delayMs?: number;
  /** texts per embedding call; this many staged texts start a batch at once; default 32 */
  batchSize?: number;
  /** wait before retrying after the embedder failed; default 5000 */
  retryMs?: number;
  logger?: Pick<Logger, 'warn'>;
}

export interface Indexer {
  /** store the text and schedule its embedding; resolves after the store write, not the model */
  enqueue(id: string, scope: string, text: string): Promise<void>;
  remove(id: string): Promise<void>;
  /** embed whatever is pending in the store (left by a crash, or marked by a provider change) */
  start(): void;
  /** resolves when nothing is staged, scheduled or being embedded (tests, graceful shutdown) */
  whenIdle(): Promise<void>;
  stop(): Promise<void>;
  /** texts embedded per second over the last RATE_WINDOW_MS (0 when nothing was embedded in it) */
  textsPerSecond(): number;
}

/** What `/readyz` shows of one index while it fills (a rebuild, a bulk import) and after. */
export interface IndexProgress {
  indexed: number;
  pending: number;
  /** what this process holds in memory of the index: scopes, and their vectors' bytes */
  loadedScopes: number;
  loadedVectorBytes: number;
  textsPerSecond: number;
  /** pending ÷ the current rate; null while nothing is pending or nothing has been embedded yet */
  etaSeconds: number | null;
}

export async function indexProgress(index: VectorIndex, indexer: Indexer): Promise<IndexProgress> {
  const { indexed, pending, loadedScopes, loadedVectorBytes } = await index.status();
  // one decimal, and the estimate from that same figure, so the report adds up as printed
  const textsPerSecond = Math.round(indexer.textsPerSecond() * 10) / 10;
  const etaSeconds = pending > 0 && textsPerSecond > 0 ? Math.ceil(pending / textsPerSecond) : null;
  return { indexed, pending, loadedScopes, loadedVectorBytes, textsPerSecond, etaSeconds };
}

const RATE_WINDOW_MS = 10_000;

export function createIndexer(options: IndexerOptions): Indexer {
  const { index, logger } = options;
  const delayMs = options.delayMs ?? 100;
  const batchSize = options.batchSize ?? 32;
  const retryMs = options.retryMs ?? 5000;

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  // aborts the embedding in flight at stop: a stop does not wait for it (see stop())
  let aborting = new AbortController();
  let staged = 0;
  let stagesInFlight = 0;
  let idleWaiters: (() => void)[] = [];
  /** [started, ended, texts] of each embedding call that ended within the rate window */
  const recent: [number, number, number][] = [];
  const embedded = (started: number, count: number) => {
    const now = performance.now();
    recent.push([started, now, count]);
    while (recent.length > 0 && recent[0][1] < now - RATE_WINDOW_MS) recent.shift();
  };

  const idle = () => !timer && !running && stagesInFlight === 0;
  const settle = () => {
    if (!idle()) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const wake of waiters) wake();
  };

  function later(ms: number) {
    timer ??= setTimeout(() => {
      timer = undefined;
      run();
    }, ms);
  }

  function schedule(now: boolean) {
    if (stopped) return;
    if (running) {
      again = true; // picked up as soon as the current drain ends
      return;
    }
    if (!now) return later(delayMs);
    clearTimeout(timer);
    timer = undefined;
    run();
  }

  function run() {
    staged = 0;
    running = (async () => {
      try {
        do {
          again = false;
          for (let taken = batchSize; !stopped && taken === batchSize; ) {
            const started = performance.now();
            taken = await index.embedPending(batchSize, aborting.signal);
            if (taken > 0) embedded(started, taken);
          }
        } while (again && !stopped);
      } catch (error) {
        if (stopped) return; // the stop aborted it: the batch stays pending for the next start
        logger?.warn('search indexer could not embed; will retry', {
          index: index.name,
          error: (error as Error).message,
          retryMs,
        });
        if (!stopped) later(retryMs);
      }
    })().finally(() => {
      running = undefined;
      settle();
    });
  }

  return {
    async enqueue(id, scope, text) {
      stagesInFlight++;
      try {
        if (await index.stage(id, scope, text)) {
          staged++;
          schedule(staged >= batchSize);
        }
      } finally {
        stagesInFlight--;
        settle();
      }
    },
    async remove(id) {
      stagesInFlight++;
      try {
        await index.remove(id);
      } finally {
        stagesInFlight--;
        settle();
      }
    },
    start() {
      stopped = false;
      if (aborting.signal.aborted) aborting = new AbortController();
      schedule(true);
    },
    whenIdle() {
      if (idle()) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    /**
     * Does not wait for the backlog, nor for the batch in flight: its embedding is aborted and
     * it stays pending in the store, like every text not embedded yet, for the next start. A
     * batch could take seconds — behind the other indexers' units in the shared embedder
     * thread, and half of it on a bulk helper still starting (embedder-thread.ts) — and a
     * SIGTERM during the first start after an upgrade waited 4.8 s for one.
     */
    async stop() {
      stopped = true;
      aborting.abort(new Error('the search indexer stopped'));
      clearTimeout(timer);
      timer = undefined;
      await running;
      settle();
    },
    textsPerSecond() {
      // over the time since the first counted call began: a fill that started 2 s ago is not
      // diluted by the 8 idle seconds before it
      const now = performance.now();
      const counted = recent.filter(([, ended]) => ended >= now - RATE_WINDOW_MS);
      if (counted.length === 0) return 0;
      const texts = counted.reduce((sum, [, , count]) => sum + count, 0);
      return texts / (Math.max(1, now - Math.max(counted[0][0], now - RATE_WINDOW_MS)) / 1000);
    },
  };
}
