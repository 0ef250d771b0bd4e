/**
 * Main-thread side of grouped commits. Appends are queued; whenever no transaction is in flight
 * the whole queue goes to the writer thread as one batch. While that batch commits and syncs,
 * new appends pile up and leave together as soon as it ends (one event-loop turn later, see
 * flushAfterContinuations) — no timer window, so a lone writer pays one sync and a hundred
 * concurrent writers share one.
 * A promise resolves only when the writer reports the transaction holding it committed.
 */
import { spawnModuleThread } from '../../platform/threads.js';
import type { ImportedRow } from './batch-plan.js';
import { unavailable } from './data-file.js';
import {
  type FromWriter,
  packBatch,
  type ToWriter,
  unpackResult,
  type WireAppend,
  type WireResult,
  type WriterInit,
} from './writer-protocol.js';

export type CommitListener = (appends?: WireAppend[], results?: WireResult[]) => void;

interface Pending {
  append: WireAppend;
  resolve(result: WireResult): void;
  reject(error: Error): void;
}

/** Bound one transaction so a flood of queued appends cannot build an unbounded message. */
const MAX_EVENTS_PER_BATCH = 20_000;

export interface WriterClient {
  append(append: WireAppend): Promise<WireResult>;
  /** Commits rows with their own positions (planImport); appends wait meanwhile. */
  importRows(rows: ImportedRow[]): Promise<number>;
  /** Stores the hash chain of every committed row; resolves to the log's last position then. */
  sealChain(): Promise<number>;
  /**
   * Called after every commit, before any append's promise continues: with the batch's appends
   * and their results, or with nothing after an import (subscriptions wake on it).
   */
  onCommit(listener: CommitListener): void;
  close(): Promise<void>;
}

export async function startWriter(
  path: string,
  options: { chain?: boolean } = {},
): Promise<WriterClient> {
  const init: WriterInit = { path, ...(options.chain === false ? { chain: false } : {}) };
  const worker = spawnModuleThread(import.meta.url, 'writer-worker', init);
  const queue: Pending[] = [];
  let inFlight: { id: number; items: Pending[] } | undefined;
  /** an import or a seal: one at a time, with no batch in flight */
  let exclusive:
    | { id: number; kind: string; resolve(position: number): void; reject(error: Error): void }
    | undefined;
  let nextBatchId = 1;
  let failure: Error | undefined;
  let closing: (() => void) | undefined;
  const commitListeners: CommitListener[] = [];
  let idleWaiters: (() => void)[] = [];

  function settleIdle(): void {
    if (inFlight || exclusive || (queue.length > 0 && !failure)) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const wake of waiters) wake();
  }

  const post = (message: ToWriter) =>
    message.kind === 'batch'
      ? worker.postMessage(message, [
          message.batch.expected.buffer as ArrayBuffer,
          message.batch.eventCounts.buffer as ArrayBuffer,
        ])
      : worker.postMessage(message);
  let flushScheduled = false;

  /**
   * After a commit, the next batch leaves one event-loop turn later, not at once: the writers
   * just acknowledged append again from promise continuations that run after this message
   * handler. Flushing inside it sent the first of them alone and the other 99 in the batch
   * after (measured: batches alternating 1 and 99 with 100 writers, half the commits wasted).
   */
  function flushAfterContinuations(): void {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(() => {
      flushScheduled = false;
      flush();
    });
  }

  function flush(): void {
    if (inFlight || exclusive || flushScheduled || queue.length === 0 || failure) return;
    let events = 0;
    let take = 0;
    while (
      take < queue.length &&
      (take === 0 || events + queue[take].append.events.length <= MAX_EVENTS_PER_BATCH)
    ) {
      events += queue[take].append.events.length;
      take += 1;
    }
    const items = queue.splice(0, take);
    inFlight = { id: nextBatchId++, items };
    post({ kind: 'batch', id: inFlight.id, batch: packBatch(items.map((item) => item.append)) });
  }

  function failEverything(error: Error): void {
    failure ??= error;
    for (const item of [...(inFlight?.items ?? []), ...queue.splice(0)]) item.reject(failure);
    inFlight = undefined;
    exclusive?.reject(failure);
    exclusive = undefined;
    settleIdle();
  }

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: FromWriter) => {
      switch (message.kind) {
        case 'ready':
          resolve();
          return;
        case 'open-failed':
          reject(unavailable(path, `cannot be opened for writing (${message.message})`));
          return;
        case 'batch-done': {
          const batch = inFlight;
          inFlight = undefined;
          const appends = batch?.items.map((item) => item.append) ?? [];
          const results = appends.map((_, i) => unpackResult(message.results, i));
          for (const listener of commitListeners) listener(appends, results);
          for (const [i, item] of (batch?.items ?? []).entries()) item.resolve(results[i]);
          flushAfterContinuations();
          settleIdle();
          return;
        }
        case 'done': {
          exclusive?.resolve(message.position);
          exclusive = undefined;
          flushAfterContinuations();
          settleIdle();
          return;
        }
        case 'batch-failed': {
          if (exclusive?.id === message.id) {
            exclusive.reject(unavailable(path, `${exclusive.kind} failed (${message.message})`));
            exclusive = undefined;
            flushAfterContinuations();
            settleIdle();
            return;
          }
          const batch = inFlight;
          inFlight = undefined;
          const error = unavailable(path, `commit failed (${message.message})`);
          if (batch) for (const item of batch.items) item.reject(error);
          flushAfterContinuations();
          settleIdle();
          return;
        }
        case 'closed':
          closing?.();
          return;
        default: {
          const _exhaustive: never = message;
          return _exhaustive;
        }
      }
    });
    worker.on('error', (error) => {
      const wrapped = unavailable(path, `writer thread failed (${error.message})`, error);
      reject(wrapped);
      failEverything(wrapped);
    });
    worker.on('exit', (code) => {
      const error = unavailable(path, `writer thread exited (code ${code})`);
      reject(error);
      failEverything(error);
      closing?.();
    });
  });
  await ready;

  /** Appends already queued or in flight go first; new ones wait behind this message. */
  async function alone(message: (id: number) => ToWriter): Promise<number> {
    if (failure) throw failure;
    while (inFlight || queue.length > 0 || exclusive)
      await new Promise<void>((resolve) => idleWaiters.push(resolve));
    if (failure) throw failure;
    const id = nextBatchId++;
    const posted = message(id);
    return new Promise<number>((resolve, reject) => {
      exclusive = { id, kind: posted.kind, resolve, reject };
      post(posted);
    });
  }

  return {
    append(append) {
      if (failure) return Promise.reject(failure);
      return new Promise<WireResult>((resolve, reject) => {
        queue.push({ append, resolve, reject });
        flush();
      });
    },
    async importRows(rows) {
      const position = await alone((id) => ({ kind: 'import', id, rows }));
      for (const listener of commitListeners) listener();
      return position;
    },
    sealChain() {
      return alone((id) => ({ kind: 'seal', id }));
    },
    onCommit(listener) {
      commitListeners.push(listener);
    },
    async close() {
      if (inFlight || queue.length > 0)
        await new Promise<void>((resolve) => idleWaiters.push(resolve));
      if (failure) {
        await worker.terminate();
        return;
      }
      failure = unavailable(path, 'the event store is closed');
      await new Promise<void>((resolve) => {
        closing = resolve;
        post({ kind: 'close' });
      });
    },
  };
}
