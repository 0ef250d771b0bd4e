/**
 * Pure translations between the port's types and @kurrent/kurrentdb-client's. Everything here
 * is free of I/O so the unit tests can pin the mapping without a server.
 */
import {
  ANY,
  type AllStreamResolvedEvent,
  type AppendStreamState,
  CancelledError,
  type CurrentStreamState,
  DeadlineExceededError,
  type EventData,
  type Filter,
  NO_STREAM,
  NotLeaderError,
  type ResolvedEvent,
  STREAM_EXISTS,
  TimeoutError,
  UnavailableError,
  WrongExpectedVersionError,
  eventTypeFilter,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
} from '@kurrent/kurrentdb-client';
import {
  type EventFilter,
  type EventMetadata,
  EventStoreUnavailableError,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevisionError,
  matchesFilter,
} from '../types.js';
import { encodePosition } from './position.js';

/** A server value the port cannot represent (revision beyond 2^53, binary payload). */
export class KurrentMappingError extends Error {
  override readonly name = 'KurrentMappingError';
}

export function toStreamState(expected: ExpectedRevision): AppendStreamState {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      if (!Number.isSafeInteger(expected) || expected < 0) {
        throw new KurrentMappingError(
          `expected revision must be a non-negative integer: ${expected}`,
        );
      }
      return BigInt(expected);
  }
}

export function fromStreamState(state: AppendStreamState): ExpectedRevision {
  return typeof state === 'bigint' ? toRevision(state) : state;
}

/** Revisions are per stream; no stream of ours approaches 2^53 events, so refuse rather than round. */
export function toRevision(revision: bigint): number {
  if (revision < 0n || revision > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new KurrentMappingError(`stream revision ${revision} does not fit the port's number`);
  }
  return Number(revision);
}

export function toActualRevision(current: CurrentStreamState): number | 'no_stream' {
  return current === NO_STREAM ? 'no_stream' : toRevision(current);
}

/**
 * The client's errors for a store it cannot reach right now: a dropped connection or a server
 * that stopped answering (gRPC 14 UNAVAILABLE, also INTERNAL and DATA_LOSS), a call cut short
 * (1 CANCELLED, 4 DEADLINE_EXCEEDED, ABORTED as TimeoutError), a leader that moved. By `type`
 * too, because a second copy of the client in node_modules has its own classes.
 */
const TRANSIENT_CLASSES = [
  UnavailableError,
  CancelledError,
  DeadlineExceededError,
  TimeoutError,
  NotLeaderError,
];
const TRANSIENT_TYPES = new Set([
  'unavailable',
  'cancelled',
  'deadline-exceeded',
  'timeout',
  'not-leader',
]);
/** Raw grpc-js ServiceErrors the client lets through unconverted (some stream paths). */
const TRANSIENT_GRPC_CODES = new Set([1, 4, 14]);

export function isTransientClientError(error: unknown): boolean {
  if (TRANSIENT_CLASSES.some((type) => error instanceof type)) return true;
  if (error === null || typeof error !== 'object') return false;
  const { type, code, details } = error as { type?: unknown; code?: unknown; details?: unknown };
  if (typeof type === 'string') return TRANSIENT_TYPES.has(type);
  return typeof code === 'number' && typeof details === 'string' && TRANSIENT_GRPC_CODES.has(code);
}

/**
 * A transient client error becomes the port's EventStoreUnavailableError — so the HTTP layer
 * answers 503 with Retry-After and the projection engine and webhook worker resubscribe —
 * with the client's error as its cause; anything else passes through unchanged.
 */
export function mapClientError(error: unknown): unknown {
  if (!isTransientClientError(error)) return error;
  const reason = (error as Error).message || (error as Error).name || String(error);
  return new EventStoreUnavailableError(`KurrentDB unavailable: ${reason}`, { cause: error });
}

/**
 * The client's concurrency error becomes the port's, a transient error EventStoreUnavailableError
 * (mapClientError); anything else passes through unchanged.
 * `expected` is what the caller asked for — the client only echoes it back, and on some server
 * paths reports it as `any`.
 */
export function mapAppendError(
  error: unknown,
  streamId: string,
  expected: ExpectedRevision,
): unknown {
  if (error instanceof WrongExpectedVersionError) {
    return new WrongExpectedRevisionError(streamId, expected, toActualRevision(error.actualState));
  }
  return mapClientError(error);
}

export function toEventData(event: NewEvent): EventData {
  return jsonEvent({
    ...(event.id ? { id: event.id } : {}),
    type: event.type,
    // the client JSON-encodes data; `undefined` has no JSON form, so it is stored as null
    data: (event.data === undefined ? null : event.data) as never,
    metadata: event.metadata as unknown as Record<string, unknown>,
  });
}

/** `$`-prefixed types and streams belong to the server (stats, metadata, links, projections). */
export function isSystemEvent(event: { streamId: string; type: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

type ServerRecordedEvent = NonNullable<ResolvedEvent['event'] | AllStreamResolvedEvent['event']>;

/**
 * Events written by other tools may lack our metadata; they still get a well-formed envelope
 * (server time, the event id as correlation) rather than failing a projector.
 */
function toMetadata(raw: unknown, recorded: ServerRecordedEvent): EventMetadata {
  if (raw !== null && typeof raw === 'object' && !(raw instanceof Uint8Array)) {
    const meta = raw as Partial<EventMetadata>;
    if (typeof meta.occurredAt === 'number' && typeof meta.correlationId === 'string') {
      return {
        ...meta,
        actor: meta.actor ?? null,
        causationId: meta.causationId ?? null,
      } as EventMetadata;
    }
  }
  return {
    actor: null,
    occurredAt: recorded.created.getTime(),
    correlationId: recorded.id,
    causationId: null,
  };
}

/**
 * One resolved event → the port's envelope. Returns undefined for what the port never shows:
 * an empty slot (a link to a deleted event).
 */
export function toRecordedEvent(
  resolved: ResolvedEvent | AllStreamResolvedEvent,
): RecordedEvent | undefined {
  const recorded = resolved.event;
  if (!recorded) return undefined;
  if (!recorded.isJson) {
    throw new KurrentMappingError(
      `event ${recorded.id} in ${recorded.streamId} is binary; this store only reads JSON events`,
    );
  }
  // servers before 22.6 send no per-event position on stream reads; the commit position alone
  // still orders correctly against other commits
  const position = recorded.position
    ? encodePosition(recorded.position)
    : resolved.commitPosition !== undefined
      ? encodePosition({ commit: resolved.commitPosition, prepare: resolved.commitPosition })
      : 0n;
  return {
    id: recorded.id,
    type: recorded.type,
    data: recorded.data,
    metadata: toMetadata(recorded.metadata, recorded),
    streamId: recorded.streamId,
    revision: toRevision(recorded.revision),
    position,
  };
}

/**
 * The server can filter on stream name or event type, not both at once. Stream prefixes go to the
 * server (they cut most), event types only when they are the sole criterion — as an anchored regex,
 * because the server's type "prefixes" would also match `ItemCreatedV2` for `ItemCreated`.
 * Without a filter, system events are excluded server-side. `keepEvent` still checks everything.
 */
export function toServerFilter(filter?: EventFilter): Filter {
  if (filter?.streamPrefixes?.length) {
    return streamNameFilter({ prefixes: [...filter.streamPrefixes] });
  }
  if (filter?.eventTypes?.length) {
    return eventTypeFilter({ regex: `^(?:${filter.eventTypes.map(escapeRegex).join('|')})$` });
  }
  return excludeSystemEvents();
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * One `$all` event → the port's envelope, or undefined when the caller must not see it: a system
 * event (checked before mapping — some are binary), one at or before the exclusive checkpoint
 * (the server's fromPosition is inclusive), or one outside the full filter.
 */
export function fromAllStream(
  resolved: AllStreamResolvedEvent,
  after: bigint | undefined,
  filter?: EventFilter,
): RecordedEvent | undefined {
  if (!resolved.event || isSystemEvent(resolved.event)) return undefined;
  const event = toRecordedEvent(resolved);
  if (!event) return undefined;
  if (after !== undefined && event.position <= after) return undefined;
  return matchesFilter(event, filter) ? event : undefined;
}
