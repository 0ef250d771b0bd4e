/**
 * The event store as the application reads and writes it: appended events are stamped with
 * their type's current schema version (unless they carry one: an import writes old events as
 * they were), and every event read — streams, `$all`, subscriptions — is upcast to its type's
 * current shape (commands/shared/versions.ts). The log itself is never rewritten; export and
 * verify read the inner store, which hands out events exactly as stored.
 */
import type { EventVersions } from '../../commands/shared/versions.js';
import type { EventStore, NewEvent, RecordedEvent, Subscription } from './types.js';

export function versionedEventStore(inner: EventStore, versions: EventVersions): EventStore {
  const stamp = (event: NewEvent): NewEvent => {
    if (event.metadata.schemaVersion !== undefined) return event;
    const version = versions.current(event.type);
    return version === 1
      ? event
      : { ...event, metadata: { ...event.metadata, schemaVersion: version } };
  };
  const read = (events: RecordedEvent[]) => events.map((e) => versions.upcast(e));
  return {
    adapter: inner.adapter,
    appendToStream: (streamId, events, options) =>
      inner.appendToStream(streamId, events.map(stamp), options),
    readStream: async (streamId, options) => read(await inner.readStream(streamId, options)),
    readAll: async (options) => read(await inner.readAll(options)),
    subscribeToAll(options) {
      const subscription = inner.subscribeToAll(options);
      return {
        close: () => subscription.close(),
        [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
          const events = subscription[Symbol.asyncIterator]();
          return {
            async next() {
              const result = await events.next();
              return result.done ? result : { done: false, value: versions.upcast(result.value) };
            },
            return: async (value?: unknown) =>
              events.return ? events.return(value) : { done: true, value: undefined },
          };
        },
      } satisfies Subscription;
    },
    headPosition: () => inner.headPosition(),
    countBehindHead: (positions, cap) => inner.countBehindHead(positions, cap),
    // an embedded store's wake-up for appends by other processes (the CLI): see runtime catchUp
    ...(inner.pollNow ? { pollNow: (head: bigint) => inner.pollNow?.(head) } : {}),
    close: () => inner.close(),
  };
}
