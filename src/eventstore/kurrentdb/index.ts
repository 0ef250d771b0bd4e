/**
 * The KurrentDB / EventStoreDB adapter of the event-store port, selected by EVENTSTORE_URL.
 * Pure translations live in mapping.ts and position.ts, the live subscription in subscription.ts.
 */
import {
  BACKWARDS,
  END,
  FORWARDS,
  KurrentDBClient,
  START,
  StreamDeletedError,
  StreamNotFoundError,
  excludeSystemEvents,
} from '@kurrent/kurrentdb-client';
import {
  type AppendResult,
  type EventStore,
  EventStoreUnavailableError,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedRevisionError,
} from '../types.js';
import {
  fromAllStream,
  mapAppendError,
  mapClientError,
  toEventData,
  toRecordedEvent,
  toRevision,
  toServerFilter,
  toStreamState,
} from './mapping.js';
import { countBehindHead } from './behind-head.js';
import { decodePosition, encodePosition } from './position.js';
import { readAllForwards } from './read-all.js';
import { createSubscription } from './subscription.js';

export interface KurrentEventStoreOptions {
  /** e.g. `kurrentdb://node1:2113,node2:2113,node3:2113?tls=false` */
  connectionString: string;
}

/**
 * EventStoreDB-era `esdb://` URLs name the same servers; this client only accepts the KurrentDB
 * schemes, so old configuration keeps working.
 */
export function normalizeConnectionString(connectionString: string): string {
  return connectionString.replace(/^esdb(\+discover)?:\/\//i, 'kurrentdb$1://');
}

/** Connection strings may carry `user:password@`; never print them. */
export function redactConnectionString(connectionString: string): string {
  return connectionString.replace(/^([a-z+]+:\/\/)[^@/]*@/i, '$1***@');
}

/**
 * Connects and reads the head of `$all` once, so a wrong URL or an unreachable cluster stops the
 * process at start with a clear error instead of failing the first request.
 */
export async function openKurrentEventStore(
  options: KurrentEventStoreOptions,
): Promise<EventStore> {
  const where = redactConnectionString(options.connectionString);
  let client: KurrentDBClient;
  try {
    client = KurrentDBClient.connectionString(normalizeConnectionString(options.connectionString));
  } catch (error) {
    throw new EventStoreUnavailableError(
      `invalid KurrentDB connection string ${where}: ${message(error)}`,
    );
  }
  const store = createKurrentEventStore(client);
  try {
    await store.headPosition();
  } catch (error) {
    await client.dispose().catch(() => undefined);
    throw new EventStoreUnavailableError(`cannot reach KurrentDB at ${where}: ${message(error)}`);
  }
  return store;
}

function message(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // the client's errors often carry only their class name as message
  return error.message && error.message !== error.name
    ? `${error.name}: ${error.message}`
    : error.name;
}

/** A dropped connection or an unanswered call becomes EventStoreUnavailableError (HTTP 503). */
function mapErrors<A extends unknown[], R>(call: (...args: A) => Promise<R>) {
  return async (...args: A): Promise<R> => {
    try {
      return await call(...args);
    } catch (error) {
      throw mapClientError(error);
    }
  };
}

export function createKurrentEventStore(client: KurrentDBClient): EventStore {
  async function readStream(
    streamId: string,
    opts: ReadStreamOptions = {},
  ): Promise<RecordedEvent[]> {
    const direction = opts.direction === 'backwards' ? BACKWARDS : FORWARDS;
    const fromRevision =
      opts.fromRevision !== undefined
        ? BigInt(opts.fromRevision)
        : direction === BACKWARDS
          ? END
          : START;
    if (opts.maxCount === 0) return [];
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of client.readStream(streamId, {
        direction,
        fromRevision,
        ...(opts.maxCount !== undefined ? { maxCount: opts.maxCount } : {}),
      })) {
        const event = toRecordedEvent(resolved);
        if (event) events.push(event);
      }
    } catch (error) {
      // the port reads a missing (or deleted) stream as empty
      if (error instanceof StreamNotFoundError || error instanceof StreamDeletedError) return [];
      throw error;
    }
    return events;
  }

  /**
   * The append response carries a position, but not the one the port promises (the last event's
   * position as `$all` reports it, which read-your-writes waits on). The server fills both halves
   * of it with the log position of the write's commit acknowledgement — "not technically correct,
   * but matches current behavior", says its request manager (EventStore/EventStore,
   * src/EventStore.Core/Services/RequestManager/Managers/WriteEvents.cs, `ClientSuccessMsg`) —
   * while each event's `$all` position pairs the transaction's commit position with the event's
   * own prepare position. Neither the client's AppendResult docs nor the gRPC contract promise
   * more. So the adapter reads the last event back from the leader: exact, for one round trip per
   * append (issue 13 item 4; the response's position is only the fallback when that read finds
   * nothing, e.g. the stream was deleted in between).
   */
  async function positionOf(streamId: string, revision: number): Promise<bigint | undefined> {
    for await (const resolved of client.readStream(streamId, {
      fromRevision: BigInt(revision),
      maxCount: 1,
      requiresLeader: true,
    })) {
      const position = resolved.event?.position;
      if (position) return encodePosition(position);
    }
    return undefined;
  }

  async function appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    opts: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const expected = opts.expectedRevision ?? 'any';
    if (events.length === 0) return appendNothing(streamId, expected);
    let result: Awaited<ReturnType<KurrentDBClient['appendToStream']>>;
    try {
      result = await client.appendToStream(streamId, events.map(toEventData), {
        streamState: toStreamState(expected),
      });
    } catch (error) {
      throw mapAppendError(error, streamId, expected);
    }
    const nextExpectedRevision = toRevision(result.nextExpectedRevision);
    const position =
      (await positionOf(streamId, nextExpectedRevision)) ??
      (result.position ? encodePosition(result.position) : await headPosition());
    return { nextExpectedRevision, position };
  }

  /**
   * Servers answer an empty append inconsistently across versions (some report revision -1 as
   * success), so the check is made here, as the embedded store makes it: nothing is written and
   * the position is 0n, which any read-your-writes wait has already passed.
   */
  async function appendNothing(
    streamId: string,
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const [last] = await readStream(streamId, { direction: 'backwards', maxCount: 1 });
    const actual = last ? last.revision : 'no_stream';
    const matches =
      expected === 'any' ||
      (expected === 'no_stream'
        ? actual === 'no_stream'
        : expected === 'stream_exists'
          ? actual !== 'no_stream'
          : actual === expected);
    if (!matches) throw new WrongExpectedRevisionError(streamId, expected, actual);
    return { nextExpectedRevision: last ? last.revision : -1, position: 0n };
  }

  function subscribeToAll(opts: SubscribeOptions = {}): Subscription {
    const { after, filter } = opts;
    return createSubscription(
      () =>
        client.subscribeToAll({
          fromPosition: after !== undefined ? decodePosition(after) : START,
          filter: toServerFilter(filter),
        }),
      (resolved: Parameters<typeof fromAllStream>[0]) => fromAllStream(resolved, after, filter),
    );
  }

  async function headPosition(): Promise<bigint> {
    // filtered so the head is the newest event a projector can see; otherwise server statistics
    // written after it would leave a projection lag that never reaches zero
    for await (const resolved of client.readAll({
      direction: BACKWARDS,
      fromPosition: END,
      maxCount: 1,
      filter: excludeSystemEvents(),
    })) {
      if (resolved.event?.position) return encodePosition(resolved.event.position);
    }
    return 0n;
  }

  return {
    adapter: 'kurrentdb',
    appendToStream: mapErrors(appendToStream),
    readStream: mapErrors(readStream),
    readAll: mapErrors((opts?: ReadAllOptions) => readAllForwards(client, opts)),
    subscribeToAll, // maps its errors as they arrive (subscription.ts)
    headPosition: mapErrors(headPosition),
    countBehindHead: mapErrors((positions: readonly bigint[], cap: number) =>
      countBehindHead(client, positions, cap),
    ),
    close: () => client.dispose(),
  };
}
