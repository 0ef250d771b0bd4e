/**
 * The process's embedder runs in a thread of its own. Embedding is CPU work of tens of
 * milliseconds per batch (a query, or 32 items while indexing); on the main thread every HTTP
 * request of the process waited behind it. Here the main thread only posts texts and receives
 * vectors.
 *
 * One thread per process, started on first use and never ended (a backlog's batches on the
 * bundled encoder also use a helper process, which does end: bulk-helper.ts): the binding of
 * onnxruntime-node cannot be loaded again in a process once a thread that loaded it has gone
 * ("Module did not self-register"), and ending such a thread while another still uses the
 * binding can abort the process. So closing an embedder drops its provider inside the thread,
 * and the thread, idle, does not keep the process alive (it is unref'd whenever nothing is asked
 * of it).
 */
import type { Worker } from 'node:worker_threads';
import { spawnModuleThread } from '../platform/threads.js';
import type { CreateEmbedderOptions } from './create-embedder.js';
import type { Embedder } from './embedder.js';
import type { FromEmbedder, ToEmbedder } from './embedder-protocol.js';
import { embedOnHelper, SPLIT_MIN, splitPoint } from './bulk-helper.js';
import { ENERGETIC_PROVIDER } from './energetic-embedder.js';

type Logger = CreateEmbedderOptions['logger'];
type Settle = { resolve(value: FromEmbedder): void; reject(error: Error): void };

interface SharedThread {
  request(message: ToEmbedder & { id: number }): Promise<FromEmbedder>;
  post(message: ToEmbedder): void;
  loggers: Map<number, Logger>;
}

let shared: SharedThread | undefined;
let nextKey = 1;
let nextId = 1;

function thread(): SharedThread {
  if (shared) return shared;
  // Inference churns through short-lived arrays: V8's default young generation (up to 48 MB)
  // stays committed once grown. 4 MB held the thread ~45 MB lower at the same texts/s.
  const worker: Worker = spawnModuleThread(import.meta.url, 'embedder-worker', undefined, {
    maxYoungGenerationSizeMb: 4,
  });
  const pending = new Map<number, Settle>();
  const loggers = new Map<number, Logger>();
  const settleRef = () => (pending.size > 0 ? worker.ref() : worker.unref());
  let gone: Error | undefined;
  const current: SharedThread = {
    request(message) {
      if (gone) return Promise.reject(gone);
      return new Promise<FromEmbedder>((resolve, reject) => {
        pending.set(message.id, { resolve, reject });
        settleRef();
        worker.postMessage(message);
      });
    },
    post: (message) => worker.postMessage(message),
    loggers,
  };
  worker.on('message', (message: FromEmbedder) => {
    if (message.kind === 'log') {
      loggers.get(message.key)?.[message.level](message.message, message.fields);
      return;
    }
    const settle = pending.get(message.id);
    pending.delete(message.id);
    settleRef();
    if (message.kind === 'failed') settle?.reject(new Error(message.message));
    else settle?.resolve(message);
  });
  const lost = (error: Error) => {
    gone ??= error;
    if (shared === current) shared = undefined; // the next embedder starts a new thread
    for (const settle of pending.values()) settle.reject(error);
    pending.clear();
  };
  worker.on('error', (error) => lost(new Error(`embedder thread failed: ${error.message}`)));
  worker.on('exit', (code) => lost(new Error(`embedder thread exited (code ${code})`)));
  shared = current;
  return current;
}

export interface EmbedderThread {
  /** resolves once the thread has loaded the provider; rejects as createEmbedder would */
  ready: Promise<Embedder>;
  /** drops the provider in the thread; later embeds reject */
  close(): Promise<void>;
}

/** Loads a provider (picked as createEmbedder picks it) in the process's embedder thread. */
export function startEmbedderThread(options: CreateEmbedderOptions): EmbedderThread {
  const { logger, ...rest } = options;
  const host = thread();
  const key = nextKey++;
  host.loggers.set(key, logger);
  let closed = false;
  const ready = host
    .request({ kind: 'load', id: nextId++, key, options: rest })
    .then((loaded): Embedder => {
      if (loaded.kind !== 'loaded') throw new Error(`embedder thread answered ${loaded.kind}`);
      return {
        provider: loaded.provider,
        dimensions: loaded.dimensions,
        async embed(texts) {
          if (closed) throw new Error('the embedder is closed');
          if (texts.length === 0) return [];
          const here = async (part: readonly string[]) => {
            const answer = await host.request({
              kind: 'embed',
              id: nextId++,
              key,
              texts: [...part],
            });
            if (answer.kind !== 'vectors') {
              throw new Error(`embedder thread answered ${answer.kind}`);
            }
            return answer.vectors;
          };
          // a backlog's batch: half of it on a second core (bulk-helper.ts)
          if (loaded.provider !== ENERGETIC_PROVIDER || texts.length < SPLIT_MIN)
            return here(texts);
          const cut = splitPoint(texts.length);
          const tail = texts.slice(cut);
          const [first, second] = await Promise.all([
            here(texts.slice(0, cut)),
            embedOnHelper(tail).catch(() => here(tail)),
          ]);
          return [...first, ...second];
        },
      };
    });
  ready.catch(() => {}); // reported to whoever awaits `ready`
  return {
    ready,
    async close() {
      if (closed) return;
      closed = true;
      host.post({ kind: 'drop', key });
      host.loggers.delete(key);
    },
  };
}
