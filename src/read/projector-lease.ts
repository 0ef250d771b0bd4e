/**
 * One projector at a time over shared read models (issue 13): a `projector` process takes a
 * lease before it applies anything, and a second one started beside it stands by until the lease
 * runs out (the first was killed) or is released (it stopped), then takes over from the stored
 * checkpoints. The holder renews the lease every third of its length; one that finds it lost (it
 * was paused past it and another took over) is told at once and must stop applying. Projectors
 * are idempotent besides (a position guard on every update), so even the moment between a pause
 * and that check cannot apply an event twice.
 *
 * Nor can it move a stored checkpoint back: a read store keeps a checkpoint when the one given is
 * behind it (ReadStore `flush`). That guard is the fence (Kleppmann, "How to do distributed
 * locking": the store refuses a write whose token is older than one it has seen), with the log
 * position as the token: it only grows, every holder takes it from the log, and the store already
 * holds it. A lease generation as the token would refuse more — a woken holder's checkpoint
 * ahead of the stored one — but that one is true: its documents were written before it and each
 * under its own position guard. And a generation alone would not stop the step back: the woken
 * holder may store its checkpoint before the new one's first flush, which, taken over from the
 * older stored one, then goes below it. It would also need a counter in both lease stores, and a
 * server (role `all`) projects without holding the lease. A woken holder writing into a read
 * model `rebuild` has just dropped (nothing is stored there to be behind) is refused on the
 * embedded read store by the dropped collections' generation, which its documents and checkpoint
 * must match (src/readstore/embedded/flush-guards.ts: the process's own copy of the read model is
 * what is stale, and those writes are all in the file's one transaction). Not guarded on MongoDB,
 * where a projector writes each document straight to the shared collections.
 *
 * The lease is `Stores.lease(PROJECTOR_LEASE, PROJECTOR_LEASE_ID)`: in MongoDB, or in the data
 * file when the read store is embedded, so `rebuild` can see any process that projects (an
 * embedded `npm start` too) and refuse to drop a read model under it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { holderLabel, type Lease } from '../platform/lease.js';
import type { Logger } from '../platform/logger.js';

export const PROJECTOR_LEASE = 'projector_lease';
export const PROJECTOR_LEASE_ID = 'lease';

export interface HeldLease {
  holder: string;
  /** stops renewing and releases it, so a standby takes over at once */
  release(): Promise<void>;
}

/**
 * Why a projector waiting for the lease does not hold it yet: another holds it, or its store
 * failed (MongoDB unreachable, the data file refusing the write), which is no reason to stand by.
 */
export type LeaseWait = StandingBy | { state: 'unavailable'; error: string };

/**
 * Standing by, since when (ISO), for whom: the holder's label (kind, pid, host: holderLabel) and
 * when its lease runs out unless renewed (ISO), as the last try found them (none when it could
 * not tell: the lease went free meanwhile, or its store refused the read).
 */
export interface StandingBy extends Partial<HeldBy> {
  state: 'standing by';
  since: string;
}

/** Another's hold on the lease, for /readyz. */
export interface HeldBy {
  heldBy: string;
  until: string;
}

/** who holds the lease now, if the store tells */
async function heldBy(lease: Lease): Promise<HeldBy | undefined> {
  const held = await lease.holder(Date.now()).catch(() => undefined);
  return held && { heldBy: held.holder, until: new Date(held.until).toISOString() };
}

interface LeaseDeps {
  lease: Lease;
  leaseMs: number;
  logger: Logger;
  /** what holds it, for the operator who finds it taken: `projector`, `server`, `rebuild` */
  kind?: string;
  /** the lease was lost while held: stop applying */
  onLost(): void;
  /** after each try that did not take it, why */
  onWait?(wait: LeaseWait): void;
  /** each try to take or renew it that failed on an error of its store */
  onError?(error: unknown): void;
  /** gives the wait up: it rejects with the signal's reason */
  signal?: AbortSignal;
}

/** Waits (standing by) until the lease is this process's, then keeps it renewed. */
export async function holdProjectorLease(deps: LeaseDeps): Promise<HeldLease> {
  const { lease, leaseMs, logger, signal } = deps;
  const holder = holderLabel(deps.kind ?? 'projector');
  const failures = storeFailures(deps);
  let last: LeaseWait | undefined;
  for (;;) {
    signal?.throwIfAborted();
    let wait: LeaseWait;
    try {
      if (await lease.take(holder, Date.now(), leaseMs)) break;
      failures.answered();
      const held = await heldBy(lease);
      const since = last?.state === 'standing by' ? last.since : new Date().toISOString();
      wait = { state: 'standing by', since, ...held };
      if (last?.state !== 'standing by') {
        logger.info('standing by: another projector holds the lease', { leaseMs, ...held });
      }
    } catch (error) {
      wait = { state: 'unavailable', error: failures.failed(error) };
    }
    last = wait;
    deps.onWait?.(wait);
    await pause(periodOf(leaseMs), signal);
  }
  return keep(deps, holder);
}

/**
 * The lease's store failing: the warning `said`, naming the error, once per distinct error (a
 * store down for an hour would log a line every period otherwise), again after the store has
 * answered; every failure reaches `onError` (the metric).
 */
function storeFailures(
  deps: Pick<LeaseDeps, 'logger' | 'onError'>,
  said = 'projector lease could not be taken: its store failed; trying again',
) {
  let logged: string | undefined;
  return {
    /** the error's message */
    failed(error: unknown): string {
      deps.onError?.(error);
      const message = error instanceof Error ? error.message : String(error);
      if (message !== logged) {
        deps.logger.warn(said, { error: message });
      }
      logged = message;
      return message;
    },
    answered() {
      logged = undefined;
    },
  };
}

/**
 * Takes the lease only if it is free now: `{ heldBy }` names the one holding it otherwise
 * (undefined when the store records none or cannot be read). Any lease of the kind: `rebuild`
 * takes the projector's, `import-workspace` the webhook worker's.
 */
export async function tryLease(
  deps: LeaseDeps,
): Promise<HeldLease | { heldBy: string | undefined }> {
  const holder = holderLabel(deps.kind ?? 'projector');
  if (await deps.lease.take(holder, Date.now(), deps.leaseMs)) return keep(deps, holder);
  return { heldBy: (await heldBy(deps.lease))?.heldBy };
}

/** until the next try; aborted, rejects with the signal's reason (the timer's is an AbortError) */
const pause = (ms: number, signal: AbortSignal | undefined) =>
  sleep(ms, undefined, { signal }).catch((error: unknown) => {
    signal?.throwIfAborted();
    throw error;
  });

const periodOf = (leaseMs: number) => Math.max(100, Math.floor(leaseMs / 3));

function keep(deps: LeaseDeps, holder: string): HeldLease {
  const { lease, leaseMs, logger } = deps;
  logger.info('projector lease taken', { holder });
  const failures = storeFailures(deps, 'projector lease renewal failed');
  let lost = false;
  /** one renewal at a time: against an unreachable store each waits for server selection, and
   * starting one per period would pile them up and send them all when the store comes back */
  let renewing = false;
  const timer = setInterval(async () => {
    if (lost || renewing) return;
    renewing = true;
    try {
      const renewed = await lease.take(holder, Date.now(), leaseMs);
      failures.answered();
      if (renewed) return;
      lost = true;
      clearInterval(timer);
      logger.error('projector lost its lease to another; stopping');
      deps.onLost();
    } catch (error) {
      // the store is unreachable: keep applying; nothing stops it when the lease could have run
      // out meanwhile, but the first renewal the store answers, finding another holder, does
      failures.failed(error);
    } finally {
      renewing = false;
    }
  }, periodOf(leaseMs));
  timer.unref();
  return {
    holder,
    async release() {
      clearInterval(timer);
      if (!lost) await lease.release(holder).catch(() => {});
    },
  };
}

/**
 * The `all` role (one server that projects for itself): it holds the lease whenever it is free,
 * so `rebuild` sees the running server, but never stands by for another server (two `npm start`
 * on one DATA_DIR each project into their own memory) — only for a rebuild under way, whose
 * read model it would otherwise write to half-built.
 */
export async function shareProjectorLease(
  deps: Omit<LeaseDeps, 'onLost' | 'kind' | 'onWait'> & {
    /** after each try to take or renew it: what it found */
    onTry?(state: SharedLeaseState): void;
  },
): Promise<HeldLease> {
  const { lease, leaseMs, logger, signal } = deps;
  const holder = holderLabel('server');
  const period = periodOf(leaseMs);
  const failures = storeFailures(deps);
  const take = async () => {
    try {
      const taken = await lease.take(holder, Date.now(), leaseMs);
      failures.answered();
      deps.onTry?.(
        taken ? { state: 'held', holder } : { state: 'held by another', ...(await heldBy(lease)) },
      );
      return taken;
    } catch (error) {
      // failed first: `onTry?.(…)` would not evaluate its argument without a listener
      const message = failures.failed(error);
      deps.onTry?.({ state: 'unavailable', error: message });
      return false;
    }
  };
  let waiting = false;
  while (!(await take())) {
    signal?.throwIfAborted();
    const held = await heldBy(lease);
    if (!held?.heldBy.startsWith(`${REBUILD_KIND} `)) break;
    if (!waiting) {
      logger.info('standing by: a rebuild holds the projector lease', { heldBy: held.heldBy });
      waiting = true;
    }
    await pause(period, signal);
  }
  let renewing = false;
  const timer = setInterval(async () => {
    if (renewing) return;
    renewing = true;
    await take();
    renewing = false;
  }, period);
  timer.unref();
  return {
    holder,
    async release() {
      clearInterval(timer);
      await lease.release(holder).catch(() => {});
    },
  };
}

/** What a server's last try at its shared lease found (it projects whatever it finds). */
export type SharedLeaseState =
  | { state: 'held'; holder: string }
  | ({ state: 'held by another' } & Partial<HeldBy>)
  | { state: 'unavailable'; error: string };

/** the kind `rebuild` holds the lease as */
export const REBUILD_KIND = 'rebuild';
