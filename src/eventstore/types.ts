/**
 * The event-store port. Every adapter (embedded SQLite, KurrentDB) implements `EventStore`
 * and passes the same contract suite (test/eventstore/contract.ts).
 *
 * Revisions are per stream and start at 0. Positions order the global log (`$all`); they are
 * bigints because KurrentDB's commit/prepare pair does not fit a double. A position is only
 * ever compared, never computed with.
 */

/**
 * A correlation id fit to keep from a client and to send on in a header: a bounded id of a safe
 * charset. An incoming one of another shape is not kept (src/http/respond.ts), and an imported
 * event may carry anything.
 */
export function isWellFormedCorrelationId(value: unknown): value is string {
  return typeof value === 'string' && CORRELATION_ID.test(value);
}
const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Who did it, through what, when, and why — carried by every event for auditors. */
export interface EventMetadata {
  /** user, person or agent id; null for system-initiated events */
  actor: string | null;
  /** attribution label (`pat:<name>`, `api:<client>`, `widget`); absent when none applies */
  via?: string;
  /**
   * which credential the request came with, where a label can name several: a personal API
   * token's id, an OAuth client's `client_id`, an integration credential's id (two tokens may
   * share a name, and any app may register under any name); absent for an ID token, a board
   * visitor and the system
   */
  credentialId?: string;
  /** milliseconds since the Unix epoch, supplied by the command (deciders never read a clock) */
  occurredAt: number;
  /**
   * the id the server minted for the request (answered as `x-correlation-id`): one request's
   * events share it and no one else's can, so an auditor may link by it
   */
  correlationId: string;
  /**
   * the `x-correlation-id` the client sent (isWellFormedCorrelationId), kept to find the request
   * by the client's own id; a claim of the client, which any other caller can repeat
   */
  clientCorrelationId?: string;
  causationId: string | null;
  /** data-shape version of this event type; absent means 1 */
  schemaVersion?: number;
  /** the client's Idempotency-Key and a hash of the command it came with */
  idempotencyKey?: string;
  commandHash?: string;
}

export interface NewEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
  metadata: EventMetadata;
  /** optional client-chosen UUID; adapters generate one when absent */
  id?: string;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  id: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  streamId: string;
  revision: number;
  position: bigint;
}

/**
 * `any`: no check. `no_stream`: the stream must not exist. `stream_exists`: it must exist.
 * A number: the stream's last revision must equal it (optimistic concurrency).
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export interface AppendResult {
  /** revision of the last event appended (the next expected revision for the writer) */
  nextExpectedRevision: number;
  /** global position of the last event appended */
  position: bigint;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** inclusive; defaults to the first event forwards and the last event backwards */
  fromRevision?: number;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** exclusive: events strictly after this position; omit to start at the beginning */
  after?: bigint;
  maxCount?: number;
  filter?: EventFilter;
}

/** Keep an event when it matches any listed prefix / type; an empty filter keeps everything. */
export interface EventFilter {
  streamPrefixes?: readonly string[];
  eventTypes?: readonly string[];
}

export interface SubscribeOptions {
  /** exclusive checkpoint: delivery starts with the first event after it; omit for the start */
  after?: bigint;
  filter?: EventFilter;
}

/**
 * A catch-up subscription: replays history after the checkpoint, then follows live appends,
 * in `$all` order, without gaps or duplicates. Iterate it; `close()` ends the iteration.
 */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

export interface BehindHead {
  /** the newest event's position when the count was made (as `headPosition()`) */
  head: bigint;
  /** per position asked about, in order: events after it up to `head`; `cap` means cap or more */
  counts: number[];
}

export interface EventStore {
  readonly adapter: 'embedded' | 'kurrentdb';
  appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options?: { expectedRevision?: ExpectedRevision },
  ): Promise<AppendResult>;
  /** A stream that does not exist reads as empty. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: SubscribeOptions): Subscription;
  /** Position of the newest event in the log (0n when empty). */
  headPosition(): Promise<bigint>;
  /**
   * Projection lag in events, not in positions (KurrentDB's are byte offsets packed in pairs):
   * the head and, per position, how many events a subscription from it has still to deliver up to
   * that head (system events excluded, as subscriptions exclude them), each count stopping at
   * `cap`. One read of at most `cap` events back from the head answers every position, so a
   * projector millions of events behind costs what one `cap` behind does.
   */
  countBehindHead(positions: readonly bigint[], cap: number): Promise<BehindHead>;
  /**
   * Embedded only: the caller read the log's head at `head`; if that is past what this process
   * committed itself (another process appended: the CLI), live subscriptions look now instead of
   * at their next poll. Server-pushed adapters need nothing.
   */
  pollNow?(head: bigint): void;
  close(): Promise<void>;
}

/** The stream's actual state did not match the expected revision; nothing was appended. */
export class WrongExpectedRevisionError extends Error {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** last revision of the stream, or 'no_stream' when it does not exist */
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}

/** The store cannot be opened or read safely (corrupt file, bad schema); never start empty. */
export class EventStoreUnavailableError extends Error {
  override readonly name = 'EventStoreUnavailableError';
}

export function matchesFilter(
  event: { streamId: string; type: string },
  filter?: EventFilter,
): boolean {
  if (!filter) return true;
  const { streamPrefixes, eventTypes } = filter;
  if (streamPrefixes?.length && !streamPrefixes.some((p) => event.streamId.startsWith(p))) {
    return false;
  }
  if (eventTypes?.length && !eventTypes.includes(event.type)) return false;
  return true;
}
