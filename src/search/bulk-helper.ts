/**
 * A second embedder thread for bulk work (issue 14: "keep the embedder thread saturated", ≥ 2×
 * texts/s). The bundled encoder's TF.js WebAssembly backend runs single-threaded in Node (its
 * threaded build is for browsers), so one thread embeds on one core however many are idle. The
 * process's embedder thread (embedder-thread.ts) splits a batch of at least SPLIT_MIN texts — a
 * backlog: a rebuild, a provider change, a bulk import — at a chunk boundary and hands the second
 * half to this helper, started on the first such batch and ended after IDLE_MS without one.
 * So a bulk (re)index uses two cores, and a process that is not catching up carries no second
 * model (idle RSS stays what issue 10 measured).
 *
 * Only for the bundled encoder: onnxruntime-node (all-MiniLM-L6-v2) cannot be loaded again in a
 * process once a thread that loaded it has ended, so that provider keeps one thread.
 */
import type { Worker } from 'node:worker_threads';
import { spawnModuleThread } from '../platform/threads.js';
import type { FromEmbedder, ToEmbedder } from './embedder-protocol.js';
import { ENERGETIC_CHUNK } from './energetic-embedder.js';

/** the smallest batch worth splitting: a full indexer batch (indexer.ts: 32) */
export const SPLIT_MIN = 32;
const IDLE_MS = 5_000;
const KEY = 1;

interface Running {
  worker: Worker;
  loaded: Promise<unknown>;
  request(message: ToEmbedder & { id: number }): Promise<FromEmbedder>;
}

let running: Running | undefined;
let busy = 0;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 1;

function start(): Running {
  const worker = spawnModuleThread(import.meta.url, 'embedder-worker', undefined, {
    maxYoungGenerationSizeMb: 4,
  });
  const pending = new Map<number, (answer: FromEmbedder | Error) => void>();
  const fail = (error: Error) => {
    if (running?.worker === worker) running = undefined;
    for (const settle of pending.values()) settle(error);
    pending.clear();
  };
  worker.on('message', (message: FromEmbedder) => {
    if (message.kind === 'log') return;
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
  worker.on('error', (error) => fail(new Error(`bulk embedder thread failed: ${error.message}`)));
  worker.on('exit', () => fail(new Error('bulk embedder thread ended')));
  const request = (message: ToEmbedder & { id: number }) =>
    new Promise<FromEmbedder>((resolve, reject) => {
      pending.set(message.id, (answer) =>
        answer instanceof Error
          ? reject(answer)
          : answer.kind === 'failed'
            ? reject(new Error(answer.message))
            : resolve(answer),
      );
      worker.postMessage(message);
    });
  const loaded = request({ kind: 'load', id: nextId++, key: KEY, options: {}, bundledOnly: true });
  loaded.catch(() => {});
  return { worker, loaded, request };
}

/** Embeds `texts` on the helper thread (the bundled encoder); rejects if it cannot. */
export async function embedOnHelper(texts: string[]): Promise<Float32Array[]> {
  clearTimeout(idleTimer);
  busy++;
  try {
    running ??= start();
    const { worker, loaded, request } = running;
    worker.ref(); // unref'd while idle: an idle helper does not keep the process alive
    await loaded;
    const answer = await request({ kind: 'embed', id: nextId++, key: KEY, texts });
    if (answer.kind !== 'vectors') throw new Error(`bulk embedder thread answered ${answer.kind}`);
    return answer.vectors;
  } finally {
    busy--;
    if (busy === 0) {
      running?.worker.unref();
      idleTimer = setTimeout(stopHelper, IDLE_MS);
      idleTimer.unref();
    }
  }
}

/** Ends the helper thread (after IDLE_MS idle, or at once); the next bulk batch starts another. */
export function stopHelper(): void {
  clearTimeout(idleTimer);
  const ending = running;
  running = undefined;
  void ending?.worker.terminate();
}

/** Whether a helper thread is running (tests). */
export const helperRunning = (): boolean => running !== undefined;

/** Where to cut `count` texts in two so both halves keep the encoder's chunks of 8 whole. */
export function splitPoint(count: number): number {
  return Math.ceil(count / 2 / ENERGETIC_CHUNK) * ENERGETIC_CHUNK;
}
