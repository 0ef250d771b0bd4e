/**
 * Shared fixtures for the event-store contract suite. Every test works in streams under its own
 * random prefix and reads `$all` after the head it found, so the suite also runs against a shared,
 * non-empty server (KurrentDB) where other events exist.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type {
  EventMetadata,
  EventStore,
  NewEvent,
  RecordedEvent,
} from '../../src/eventstore/types.js';

export interface OpenedStore {
  store: EventStore;
  cleanup(): Promise<void>;
}

export type OpenStore = () => Promise<OpenedStore>;

/** Gives each test a freshly opened store and cleans it up afterwards. */
export function useStore(open: OpenStore): () => EventStore {
  let opened: OpenedStore | undefined;
  beforeEach(async () => {
    opened = await open();
  });
  afterEach(async () => {
    await opened?.cleanup();
    opened = undefined;
  });
  return () => {
    if (!opened) throw new Error('store used outside a test');
    return opened.store;
  };
}

export const prefix = () => `ct${randomUUID().replaceAll('-', '').slice(0, 12)}-`;

export const metadata = (overrides: Partial<EventMetadata> = {}): EventMetadata => ({
  actor: 'person-1',
  via: 'pat:contract',
  occurredAt: 1_700_000_000_000,
  correlationId: randomUUID(),
  causationId: null,
  ...overrides,
});

export const event = (type: string, data: unknown = {}): NewEvent => ({
  type,
  data,
  metadata: metadata(),
});

export const events = (count: number, type = 'ThingHappened'): NewEvent[] =>
  Array.from({ length: count }, (_, i) => event(type, { n: i }));

/** Awaits a promise expected to reject and returns the error. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  expect.fail('expected the promise to reject');
}

/** Collects events from an async iterable until `until` says stop or the time runs out. */
export async function collect(
  source: AsyncIterable<RecordedEvent>,
  until: (seen: RecordedEvent[]) => boolean,
  timeoutMs = 10_000,
): Promise<RecordedEvent[]> {
  const seen: RecordedEvent[] = [];
  const deadline = Date.now() + timeoutMs;
  const iterator = source[Symbol.asyncIterator]();
  while (!until(seen)) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new Error(`timed out after ${seen.length} events`);
    let timer: NodeJS.Timeout | undefined;
    const next = await Promise.race([
      iterator.next(),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), remaining);
      }),
    ]);
    clearTimeout(timer);
    if (next === 'timeout') throw new Error(`timed out after ${seen.length} events`);
    if (next.done) break;
    seen.push(next.value);
  }
  return seen;
}

export const ids = (list: readonly { id: string }[]) => list.map((e) => e.id);
