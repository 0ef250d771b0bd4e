/**
 * Adapts the client's `$all` subscription (a Node Readable of resolved events) to the port's
 * Subscription: an async iterable with close().
 *
 * Why not simply `for await` the Readable: the client's unsubscribe() cancels the gRPC call but
 * never ends the Readable, so a consumer awaiting the next event would hang forever. Here close()
 * wakes every waiter and the iteration finishes. The buffer is bounded: the source is paused at
 * HIGH_WATER events and resumed once the consumer drains below LOW_WATER, so a slow projector
 * never makes the process hold all of history in memory.
 */
import { EventStoreUnavailableError, type RecordedEvent, type Subscription } from '../types.js';
import { mapClientError } from './mapping.js';

const HIGH_WATER = 512;
const LOW_WATER = 128;

/** The part of the client's AllStreamSubscription this adapter uses (a PassThrough in tests). */
export interface SubscriptionSource {
  /** 'data' (one raw event), 'error', 'end' and 'close' are used */
  on(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  unsubscribe(): Promise<void>;
  destroy(): unknown;
}

/**
 * The server ended a catch-up subscription that nobody closed; resubscribe from the checkpoint.
 * An EventStoreUnavailableError, so the projection engine and the webhook worker do just that.
 */
export class SubscriptionDroppedError extends EventStoreUnavailableError {}

/**
 * `open` is called on the first next(), so a subscription that is closed before anyone iterates
 * it never reaches the server. `map` returns undefined for events the caller must not see.
 */
export function createSubscription<Raw>(
  open: () => SubscriptionSource,
  map: (raw: Raw) => RecordedEvent | undefined,
): Subscription {
  let source: SubscriptionSource | undefined;
  const buffer: RecordedEvent[] = [];
  const waiters: Array<() => void> = [];
  let failure: { error: unknown } | undefined;
  let ended = false;
  let closed = false;
  let paused = false;

  const wakeAll = () => {
    for (const wake of waiters.splice(0)) wake();
  };

  function start(): SubscriptionSource {
    const opened = open();
    opened.on('data', (raw: Raw) => {
      if (closed || failure) return;
      try {
        const event = map(raw);
        if (event) buffer.push(event);
      } catch (error) {
        failure = { error };
      }
      if (buffer.length >= HIGH_WATER && !paused) {
        paused = true;
        opened.pause();
      }
      wakeAll();
    });
    opened.on('error', (error) => {
      // a dropped connection (14 UNAVAILABLE, …) becomes EventStoreUnavailableError
      if (!closed) failure ??= { error: mapClientError(error) };
      wakeAll();
    });
    const onEnd = () => {
      ended = true;
      wakeAll();
    };
    opened.on('end', onEnd);
    opened.on('close', onEnd);
    return opened;
  }

  async function stopSource(): Promise<void> {
    const current = source;
    if (!current) return;
    try {
      await current.unsubscribe();
    } catch {
      // the call is already gone (dropped connection); there is nothing left to cancel
    }
    current.destroy();
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    buffer.length = 0;
    wakeAll();
    await stopSource();
  }

  async function next(): Promise<IteratorResult<RecordedEvent>> {
    if (!source && !closed) source = start();
    for (;;) {
      if (closed) return { done: true, value: undefined };
      const event = buffer.shift();
      if (event) {
        if (paused && buffer.length <= LOW_WATER) {
          paused = false;
          source?.resume();
        }
        return { done: false, value: event };
      }
      // events that arrived before a failure are delivered first, then the failure
      if (failure) {
        const { error } = failure;
        await close();
        throw error;
      }
      if (ended) {
        await close();
        throw new SubscriptionDroppedError('KurrentDB ended the $all subscription');
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }

  const iterator: AsyncIterableIterator<RecordedEvent> = {
    next,
    async return() {
      await close();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return {
    [Symbol.asyncIterator]: () => iterator,
    close,
  };
}
