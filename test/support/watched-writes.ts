/**
 * What the HTTP requests a process serves write: every call of a write method of the embedded
 * read store's collections (read models, limits buckets, deliveries, OAuth records, quiet
 * Idempotency-Keys: everything that store holds) and every append to the event log, each with
 * the request it was made for.
 *
 * The runtime opens its stores itself (src/platform/stores.ts), so they cannot be handed in
 * wrapped as intercepted-store.ts does: the collections' write methods are wrapped in place, on
 * the embedded collection class, and so is the event store's append, while the watch lasts —
 * the calls are made as in production, only noted on their way. A write is the request's when
 * it runs in that request's asynchronous context (node:diagnostics_channel tells when a request
 * starts): the projectors', the webhook worker's and the sweeps' own writes are not a
 * request's, however they interleave with it. A write a request only queues for a worker to
 * make later is the worker's, and not seen here; a timer a request starts keeps its context, so
 * what that timer writes later counts as the request's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { EventStore } from '../../src/eventstore/types.js';
import { EmbeddedCollection } from '../../src/readstore/embedded/collection.js';
import { WRITE_METHODS } from './counted-writes.js';

const WRITES = [...WRITE_METHODS, 'createIndex'] as const;

export interface Written {
  /** `collection.method` of each read-store write, in order */
  readStore: string[];
  /** `stream Type` of each event appended */
  events: string[];
}

export interface WriteWatch {
  /** what the requests that carried `header: value` wrote since the last reset */
  written(header: string, value: string | undefined): Written;
  reset(): void;
  /** ends the watch: the methods are the stores' own again */
  stop(): void;
}

interface Made {
  headers: IncomingMessage['headers'];
  write: { readStore: string } | { event: string };
}

const REQUEST_START = 'http.server.request.start';
let watching = false;

/** Watch what the requests served by this process write through `eventStore` and the read store. */
export function watchWrites(eventStore: EventStore): WriteWatch {
  if (watching) throw new Error('one write watch at a time: it wraps the collection class');
  watching = true;
  const request = new AsyncLocalStorage<IncomingMessage['headers'] | undefined>();
  let made: Made[] = [];
  const note = (write: Made['write']) => {
    const headers = request.getStore();
    if (headers) made.push({ headers, write });
  };
  // every request enters its own context, so a later request on a kept-alive socket is not
  // taken for the one before it
  const onStart = (message: unknown) =>
    request.enterWith((message as { request: IncomingMessage }).request.headers);
  diagnostics.subscribe(REQUEST_START, onStart);

  const proto = EmbeddedCollection.prototype as unknown as Record<string, unknown>;
  const originals = new Map<string, unknown>();
  for (const method of WRITES) {
    const original = proto[method] as (...args: unknown[]) => unknown;
    originals.set(method, original);
    proto[method] = function (this: { name: string }, ...args: unknown[]) {
      note({ readStore: `${this.name}.${method}` });
      return original.apply(this, args);
    };
  }
  const append = eventStore.appendToStream;
  eventStore.appendToStream = (streamId, events, options) => {
    for (const event of events) note({ event: `${streamId} ${event.type}` });
    return append.call(eventStore, streamId, events, options);
  };

  return {
    written(header, value) {
      const own = made.filter((entry) => entry.headers[header] === value);
      return {
        readStore: own.flatMap(({ write }) => ('readStore' in write ? [write.readStore] : [])),
        events: own.flatMap(({ write }) => ('event' in write ? [write.event] : [])),
      };
    },
    reset() {
      made = [];
    },
    stop() {
      diagnostics.unsubscribe(REQUEST_START, onStart);
      for (const [method, original] of originals) proto[method] = original;
      eventStore.appendToStream = append;
      watching = false;
    },
  };
}
