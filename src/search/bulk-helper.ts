/**
 * A second embedder for bulk work (issue 14: "keep the embedder thread saturated", ≥ 2×
 * texts/s). The bundled encoder's TF.js WebAssembly backend runs single-threaded in Node (its
 * threaded build is for browsers), so one thread embeds on one core however many are idle. The
 * process's embedder thread (embedder-thread.ts) splits a batch of at least SPLIT_MIN texts — a
 * backlog: a rebuild, a provider change, a bulk import — at a chunk boundary and hands the second
 * half to this helper, started on the first such batch and ended after IDLE_MS without one.
 * So a bulk (re)index uses two cores, and a process that is not catching up carries no second
 * model.
 *
 * The helper is a child process (embedder-child.ts), not a thread: a second thread's model and
 * WebAssembly heap (~140 MB) left the process ~48 MB larger after the thread ended (the
 * allocator keeps the pages), which would have broken issue 10's idle-RSS bound after every
 * backlog; a process gives all of it back when it exits.
 *
 * Only for the bundled encoder: all-MiniLM-L6-v2 keeps to the one embedder thread.
 */
import type { ChildProcess } from 'node:child_process';
import { forkModule } from '../platform/threads.js';
import type { FromBulkChild, ToBulkChild } from './embedder-child.js';
import { untilAborted } from './embedder.js';
import { ENERGETIC_CHUNK } from './energetic-embedder.js';

/** the smallest batch worth splitting: a full indexer batch (indexer.ts: 32) */
export const SPLIT_MIN = 32;
const IDLE_MS = 5_000;
/** after the helper failed, batches stay on the embedder thread this long (no fork per batch) */
const COOL_OFF_MS = 60_000;

interface Running {
  child: ChildProcess;
  request(texts: string[]): Promise<Float32Array[]>;
}

let running: Running | undefined;
let busy = 0;
let idleTimer: NodeJS.Timeout | undefined;
let failedAt = Number.NEGATIVE_INFINITY;

function start(): Running {
  const child = forkModule(import.meta.url, 'embedder-child');
  const pending = new Map<number, (answer: FromBulkChild | Error) => void>();
  let nextId = 1;
  const fail = (error: Error, ended = false) => {
    if (!ended) failedAt = performance.now();
    if (running?.child === child) running = undefined;
    for (const settle of pending.values()) settle(error);
    pending.clear();
  };
  child.on('message', (message: FromBulkChild) => {
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
  child.on('error', (error) => fail(new Error(`bulk embedder failed: ${error.message}`)));
  // exit 0 after stopHelper's disconnect is the planned end; any other is a failure
  child.on('exit', (code) => fail(new Error(`bulk embedder exited (code ${code})`), code === 0));
  const request = (texts: string[]) =>
    new Promise<Float32Array[]>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, (answer) => {
        if (answer instanceof Error) reject(answer);
        else if ('error' in answer) reject(new Error(answer.error));
        else resolve(answer.vectors);
      });
      child.send({ id, texts } satisfies ToBulkChild);
    });
  return { child, request };
}

/** Keeps the process alive only while the helper works. */
function hold(child: ChildProcess, held: boolean): void {
  const channel = child.channel as { ref(): void; unref(): void } | undefined;
  if (held) {
    child.ref();
    channel?.ref();
  } else {
    child.unref();
    channel?.unref();
  }
}

/**
 * Embeds `texts` in the helper process (the bundled encoder); rejects if it cannot. An abort
 * stops the wait at once (a stopping indexer): the helper may still be starting, which took
 * ~10 s on 2 busy cores, and its answer is then dropped unseen.
 */
export async function embedOnHelper(
  texts: string[],
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  signal?.throwIfAborted();
  if (performance.now() - failedAt < COOL_OFF_MS) {
    throw new Error('the bulk embedder failed recently; the embedder thread takes the batch');
  }
  clearTimeout(idleTimer);
  busy++;
  let child: ChildProcess | undefined;
  try {
    running ??= start(); // fork can throw (no processes left): then this batch stays home
    child = running.child;
    hold(child, true);
    return await untilAborted(running.request(texts), signal);
  } finally {
    busy--;
    if (busy === 0) {
      if (child) hold(child, false);
      idleTimer = setTimeout(stopHelper, IDLE_MS);
      idleTimer.unref();
    }
  }
}

/** Ends the helper (after IDLE_MS idle, or at once); the next bulk batch starts another. */
export function stopHelper(): void {
  clearTimeout(idleTimer);
  const ending = running;
  running = undefined;
  if (ending?.child.connected) ending.child.disconnect(); // it exits on disconnect
}

/** Forgets a failure so the next bulk batch tries the helper again (tests). */
export function resetHelperFailure(): void {
  failedAt = Number.NEGATIVE_INFINITY;
}

/** The running helper's process, if any (tests). */
export const helperProcess = (): ChildProcess | undefined => running?.child;

/** Where to cut `count` texts in two so both halves keep the encoder's chunks of 8 whole. */
export function splitPoint(count: number): number {
  return Math.ceil(count / 2 / ENERGETIC_CHUNK) * ENERGETIC_CHUNK;
}
