/**
 * How an API process over the embedded stores sees what other processes appended to the shared
 * log file (the admin CLI, a second API process): `catchUp` before a request reads the read
 * models, and `pendingFor` for those that need only some of their events (authentication; the
 * board's pages, which ask the log at most every `everyMs`).
 */
import type { EventFilter, EventStore, RecordedEvent } from '../eventstore/types.js';
import type { ProjectionEngine } from '../read/projection-engine.js';
import type { ReadStore } from '../readstore/types.js';

/** what the two need of the stores */
export interface LogAndReadStore {
  eventStore: Pick<EventStore, 'headPosition' | 'pollNow' | 'readAll'>;
  readStore: Pick<ReadStore, 'adapter'>;
}
type EngineView = Pick<ProjectionEngine, 'position' | 'waitFor'>;

/**
 * Only an engine over the embedded read store keeps read models another process cannot update:
 * with MongoDB the CLI writes the shared read models itself and exits once they are written.
 * Asking the log's head is one SQLite read; waiting happens only when the head moved.
 *
 * Requests share reads: a caller joins the next read that has not started yet, and that read
 * starts at the end of the current event-loop turn (setImmediate), after every request read in
 * this turn has asked. A read never serves a request that asked after it started, so anything
 * committed before a request was sent — a revocation by the CLI — is seen by that request.
 * Measured with bench:api's get_item at 50 connections (old and new alternating, same data): one
 * read served ~30 requests, and throughput rose from ~5,000 to ~8,500 requests/s — more than
 * the reads' own cost (~10 µs each under that load): the requests of a turn also proceed
 * together. A read per request deferred the same way (no sharing) reached only ~6,100.
 */
export function catchUpFor(
  stores: LogAndReadStore,
  engine: EngineView | undefined,
): () => Promise<void> {
  if (!engine || stores.readStore.adapter !== 'embedded') return async () => {};
  return sharedPerTurn(async () => {
    const head = await stores.eventStore.headPosition();
    if (head <= engine.position()) return;
    stores.eventStore.pollNow?.(head);
    await engine.waitFor(head);
  });
}

/** What the log holds that the read models lack, of the events a `pendingFor` keeps. */
export interface PendingEvents {
  /** the log's events past the read models' position, oldest first (none: they hold them all) */
  readonly events: readonly RecordedEvent[];
  /** resolves once the read models include the log up to `position`; timed like every wait */
  waitFor(position: bigint): Promise<void>;
}

const NONE: PendingEvents = { events: [], waitFor: async () => {} };

/**
 * `catchUpFor` bounded to the events `only` keeps, and left to its caller: the events of them in
 * the log that the read models lack (authentication: the credentials' and memberships' streams),
 * so that a request waits only for those that can change its own answer — not for the head, and
 * not for another caller's new token. Shares each turn's read as `catchUpFor` does; while the
 * engine keeps up it reads the head alone (the answer is NONE), and while it lags only what was
 * appended since the last read.
 */
export function pendingFor(
  stores: LogAndReadStore,
  engine: EngineView | undefined,
  only: EventFilter,
  /**
   * ask the log at most this often (on the monotonic clock: a step back of the wall clock stops
   * no catch-up) and give the last answer between: a busy page costs no log read per view
   */
  everyMs = 0,
): (() => Promise<PendingEvents>) | null {
  if (!engine || stores.readStore.adapter !== 'embedded') return null;
  const kept = keptPast(stores.eventStore, engine, only);
  const waitFor = (position: bigint) => engine.waitFor(position);
  const read = sharedPerTurn(async () => {
    const head = await stores.eventStore.headPosition();
    if (head <= engine.position()) return NONE;
    stores.eventStore.pollNow?.(head);
    const events = await kept(head);
    return events.length === 0 ? NONE : { events, waitFor };
  });
  if (everyMs <= 0) return read;
  let askedAt = Number.NEGATIVE_INFINITY;
  let last: Promise<PendingEvents> = Promise.resolve(NONE);
  return () => {
    const now = performance.now();
    if (now - askedAt >= everyMs) {
      askedAt = now;
      last = read();
      last.catch(() => {
        askedAt = Number.NEGATIVE_INFINITY; // a failed read is not kept: the next one asks again
      });
    }
    return last;
  };
}

/** where nothing can be pending: another process applies the events (MongoDB) */
export const nothingPending = async (): Promise<PendingEvents> => NONE;

/**
 * Requests share reads: a caller joins the next read that has not started yet, and that read
 * starts at the end of the current event-loop turn (setImmediate), after every request read in
 * this turn has asked. A read never serves a request that asked after it started.
 */
function sharedPerTurn<T>(read: () => Promise<T>): () => Promise<T> {
  let next: Promise<T> | undefined;
  return () => {
    next ??= new Promise<T>((resolve, reject) => {
      setImmediate(() => {
        next = undefined; // from here on, callers wait for a later read
        read().then(resolve, reject);
      });
    });
    return next;
  };
}

/**
 * The events `only` keeps, up to `head`, that the read models lack: kept between calls and read
 * from the log only past what was read before (one read at a time); dropped as the engine applies
 * them, read again from the engine's position when a rebuild sets it back. A changed list is a new
 * array, so a caller may index one and keep the index while it is handed the same array.
 */
function keptPast(
  eventStore: LogAndReadStore['eventStore'],
  engine: EngineView,
  only: EventFilter,
): (head: bigint) => Promise<readonly RecordedEvent[]> {
  let from = 0n; // `kept` holds every event `only` keeps above this, up to `scanned`
  let scanned = 0n;
  let kept: RecordedEvent[] = [];
  let reading: Promise<unknown> = Promise.resolve();
  const read = async (head: bigint) => {
    const applied = engine.position();
    if (applied < from || applied > scanned) {
      kept = [];
      from = scanned = applied;
    } else if (applied > from) {
      kept = kept.filter((event) => event.position > applied);
      from = applied;
    }
    if (head > scanned) {
      const fresh = await eventStore.readAll({ after: scanned, filter: only });
      const added = fresh.filter((event) => event.position <= head);
      if (added.length > 0) kept = [...kept, ...added];
      scanned = head;
    }
    return kept;
  };
  return (head) => {
    const run = reading.then(
      () => read(head),
      () => read(head),
    );
    reading = run;
    return run;
  };
}
