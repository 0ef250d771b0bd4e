/**
 * How an API process over the embedded stores sees what other processes appended to the shared
 * log file (the admin CLI, a second API process): `catchUp` before a request reads the read
 * models, and `readVersion` for pages that cache on the read models' position.
 */
import type { EventStore } from '../eventstore/types.js';
import type { ProjectionEngine } from '../read/projection-engine.js';
import type { ReadStore } from '../readstore/types.js';

/** what the two need of the stores */
export interface LogAndReadStore {
  eventStore: Pick<EventStore, 'headPosition' | 'pollNow'>;
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
  const check = async () => {
    const head = await stores.eventStore.headPosition();
    if (head <= engine.position()) return;
    stores.eventStore.pollNow?.(head);
    await engine.waitFor(head);
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
