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
 *
 * The thread is shared by every user and both services, so it is scheduled here, not first come
 * first served: every embed is cut into units of at most UNIT_TEXTS texts and UNIT_CHARS
 * characters (each text already cut to its provider's `maxChars`, embedder.ts), the thread is
 * given one unit at a time, and its next unit is a query's (`priority: 'query'`) whenever one
 * waits, else the oldest background (indexing) unit. So a search's query waits at most for the
 * one unit already running (4 texts, or 2 of the bundled encoder's longest, 4,096 characters,
 * or 1 of all-MiniLM-L6-v2's, 8,192: ~0.1–0.2 s on the bundled encoder), never for the backlog
 * queued behind it. Indexing keeps its batches (the indexer's 32, half of them on the bulk
 * helper): only the thread's work is cut. bench/search-backlog.bench.ts measures the wait.
 */
import type { Worker } from 'node:worker_threads';
import { spawnModuleThread } from '../platform/threads.js';
import type { CreateEmbedderOptions } from './create-embedder.js';
import {
  type EmbedOptions,
  type Embedder,
  embeddablePrefix,
  MAX_EMBED_CHARS,
  untilAborted,
} from './embedder.js';
import type { FromEmbedder, ToEmbedder } from './embedder-protocol.js';
import { embedOnHelper, SPLIT_MIN, splitPoint } from './bulk-helper.js';
import { ENERGETIC_PROVIDER } from './energetic-embedder.js';

type Logger = CreateEmbedderOptions['logger'];
type Settle = { resolve(value: FromEmbedder): void; reject(error: Error): void };
type Priority = NonNullable<EmbedOptions['priority']>;

/**
 * texts in one unit of work the thread is given. The bundled encoder's time per text, not per
 * call, is what it costs (ENERGETIC_CHUNK: bigger chunks gained nothing), so a smaller unit
 * loses no texts/s and shortens a query's wait: behind a backlog of short texts a search took
 * ~300 ms with units of 8 and ~95 ms with 4 (bench/search-backlog.bench.ts, 300-character texts)
 */
export const UNIT_TEXTS = 4;
/**
 * characters in one unit (texts are cut to MAX_EMBED_CHARS at most, this many): what a query
 * may wait for is one unit, so this and UNIT_TEXTS bound its wait
 */
export const UNIT_CHARS = 8_192;

/** Cuts texts (each already cut to its provider's maxChars) into units, in order, none empty. */
export function units(texts: readonly string[]): string[][] {
  const out: string[][] = [];
  let unit: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (unit.length > 0 && (unit.length === UNIT_TEXTS || chars + text.length > UNIT_CHARS)) {
      out.push(unit);
      unit = [];
      chars = 0;
    }
    unit.push(text);
    chars += text.length;
  }
  if (unit.length > 0) out.push(unit);
  return out;
}

/** One unit waiting for the thread. */
interface Queued {
  key: number;
  texts: string[];
  /** the embed call it belongs to: a failed unit drops the call's other units */
  call: object;
  settle: Settle;
}

interface SharedThread {
  request(message: ToEmbedder & { id: number }): Promise<FromEmbedder>;
  /** embeds through the queue, unit by unit, queries first; an abort drops the queued units */
  embed(
    key: number,
    texts: string[],
    priority: Priority,
    signal?: AbortSignal,
  ): Promise<Float32Array[]>;
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
  const waiting: Record<Priority, Queued[]> = { query: [], background: [] };
  let running = false; // a unit is with the thread
  const settleRef = () =>
    pending.size > 0 || waiting.query.length + waiting.background.length > 0
      ? worker.ref()
      : worker.unref();
  let gone: Error | undefined;
  const send = (message: ToEmbedder & { id: number }, settle: Settle) => {
    pending.set(message.id, settle);
    settleRef();
    worker.postMessage(message);
  };
  /** gives the thread its next unit when it has none: a query's if one waits */
  const pump = () => {
    if (running || gone) return;
    const next = waiting.query.shift() ?? waiting.background.shift();
    if (!next) return;
    running = true;
    const done = () => {
      running = false;
      pump();
    };
    send(
      { kind: 'embed', id: nextId++, key: next.key, texts: next.texts },
      {
        resolve: (answer) => {
          done();
          next.settle.resolve(answer);
        },
        reject: (error) => {
          done();
          next.settle.reject(error);
        },
      },
    );
  };
  const current: SharedThread = {
    request(message) {
      if (gone) return Promise.reject(gone);
      return new Promise<FromEmbedder>((resolve, reject) => send(message, { resolve, reject }));
    },
    async embed(key, texts, priority, signal) {
      if (gone) throw gone;
      signal?.throwIfAborted();
      const call = {};
      const drop = () => {
        for (const queue of Object.values(waiting)) {
          for (let i = queue.length - 1; i >= 0; i--) {
            if (queue[i]!.call !== call) continue;
            const [dropped] = queue.splice(i, 1);
            dropped!.settle.reject(new Error('an earlier part of this embed failed'));
          }
        }
        settleRef();
      };
      const answers = units(texts).map((part) => {
        const answer = new Promise<FromEmbedder>((resolve, reject) => {
          waiting[priority].push({ key, texts: part, call, settle: { resolve, reject } });
        });
        answer.catch(() => {}); // awaited in order below; a later one may fail first
        return answer;
      });
      settleRef();
      pump();
      const collect = async () => {
        const vectors: Float32Array[] = [];
        for (const answer of answers) {
          const message = await answer;
          if (message.kind !== 'vectors')
            throw new Error(`embedder thread answered ${message.kind}`);
          vectors.push(...message.vectors);
        }
        return vectors;
      };
      try {
        // aborted (a stopping indexer): the caller stops waiting at once and the thread is not
        // kept busy with units nobody waits for; only the unit it is running ends, unseen
        return await untilAborted(collect(), signal);
      } catch (error) {
        drop();
        throw error;
      }
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
    const queued = [...waiting.query, ...waiting.background];
    waiting.query = [];
    waiting.background = [];
    for (const settle of [...pending.values(), ...queued.map((unit) => unit.settle)])
      settle.reject(error);
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
      const maxChars = loaded.maxChars ?? MAX_EMBED_CHARS;
      return {
        provider: loaded.provider,
        dimensions: loaded.dimensions,
        maxChars,
        async embed(whole, embedOptions) {
          if (closed) throw new Error('the embedder is closed');
          if (whole.length === 0) return [];
          const priority = embedOptions?.priority ?? 'background';
          const signal = embedOptions?.signal;
          // cut here too: a 100 KB text is not copied to the thread only to be cut there
          const texts = whole.map((text) => embeddablePrefix(text, maxChars));
          const here = (part: string[]) => host.embed(key, part, priority, signal);
          // a backlog's batch: half of it on a second core (bulk-helper.ts)
          if (loaded.provider !== ENERGETIC_PROVIDER || texts.length < SPLIT_MIN)
            return here(texts);
          const cut = splitPoint(texts.length);
          const tail = texts.slice(cut);
          const [first, second] = await Promise.all([
            here(texts.slice(0, cut)),
            embedOnHelper(tail, signal).catch((error) => {
              if (signal?.aborted) throw error;
              return here(tail);
            }),
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
