/**
 * How an API process over the embedded stores sees what other processes appended to the shared
 * log file (the admin CLI, a second API process): `catchUp` before a request reads the read
 * models, and `readVersion` for pages that cache on the read models' position.
 */
import type { EventFilter, EventStore } from '../eventstore/types.js';
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
  /**
   * only the events this catch-up is for (authentication: the credentials' and memberships'
   * streams): it waits for the newest of them the read models lack, not for the head — a
   * projector held by a long rebuild or a stuck item event stops no request that needs none of it
   */
  only?: EventFilter,
): () => Promise<void> {
  if (!engine || stores.readStore.adapter !== 'embedded') return async () => {};
  const target = only ? newestOf(stores.eventStore, engine, only) : async (head: bigint) => head;
  const check = async () => {
    const head = await stores.eventStore.headPosition();
    if (head <= engine.position()) return;
    stores.eventStore.pollNow?.(head);
    const position = await target(head);
    if (position > engine.position()) await engine.waitFor(position);
  };
  let next: Promise<void> | undefined;
  return () => {
    next ??= new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        next = undefined; // from here on, callers wait for a later read
        check().then(resolve, reject);
      });
    });
    return next;
  };
}

/**
 * The newest position up to `head` of an event `only` keeps (0n: none the read models lack). The
 * log past the engine's position is read once: each call reads only what was appended since the
 * last, and reads none of it while the engine keeps up.
 */
function newestOf(
  eventStore: LogAndReadStore['eventStore'],
  engine: EngineView,
  only: EventFilter,
): (head: bigint) => Promise<bigint> {
  let from = 0n; // the log is read from here on: a rebuild sets the engine back below it
  let scanned = 0n;
  let newest = 0n;
  return async (head) => {
    const applied = engine.position();
    if (applied < from) scanned = newest = from = 0n;
    if (scanned === 0n) from = applied;
    const after = scanned > applied ? scanned : applied;
    if (head <= after) return newest;
    for (const event of await eventStore.readAll({ after, filter: only })) {
      if (event.position <= head && event.position > newest) newest = event.position;
    }
    if (head > scanned) scanned = head;
    return newest;
  };
}

/**
 * The position this process's read models have reached — a version that changes whenever any
 * read model may have (the board asks it before its caches: it catches up, and null says that
 * nothing may be cached; which product changed it hears from ServiceContext.observeApplied).
 * Writes of this process show at once (the engine's position moves before their answer); the
 * shared log is asked for other processes' writes (the CLI, a second API process on the same
 * file) at most every READ_VERSION_POLL_MS, so a busy page does not cost a log read per view. Only in-process projections over the
 * embedded store know their position; with MongoDB another process applies the events: null.
 */
const READ_VERSION_POLL_MS = 50;

export function readVersionFor(
  engine: EngineView | undefined,
  readStore: LogAndReadStore['readStore'],
  /** the requests' catch-up: a page view in a turn shares its read */
  catchUp: () => Promise<void>,
): () => Promise<string | null> {
  if (!engine || readStore.adapter !== 'embedded') return async () => null;
  let askedAt = Number.NEGATIVE_INFINITY;
  return async () => {
    const now = performance.now(); // monotonic: a step back of the wall clock stops no catch-up
    if (now - askedAt >= READ_VERSION_POLL_MS) {
      askedAt = now;
      await catchUp();
    }
    return engine.position().toString();
  };
}
