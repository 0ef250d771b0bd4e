/**
 * One projector at a time over shared read models (issue 13): a `projector` process takes a
 * lease in the read store before it applies anything, and a second one started beside it stands
 * by until the lease runs out (the first was killed) or is released (it stopped), then takes
 * over from the stored checkpoints. The holder renews the lease every third of its length; one
 * that finds it lost (it was paused past it and another took over) is told at once and must stop
 * applying. Projectors are idempotent besides (a position guard on every update), so even the
 * moment between a pause and that check cannot apply an event twice.
 */
import { randomUUID } from 'node:crypto';
import { leaseIn } from '../platform/lease.js';
import type { Logger } from '../platform/logger.js';
import type { ReadStore } from '../readstore/types.js';

export const PROJECTOR_LEASE = 'projector_lease';

export interface HeldLease {
  holder: string;
  /** stops renewing and releases it, so a standby takes over at once */
  release(): Promise<void>;
}

export async function holdProjectorLease(deps: {
  store: ReadStore;
  leaseMs: number;
  logger: Logger;
  /** the lease was lost while held: stop applying */
  onLost(): void;
}): Promise<HeldLease> {
  const { store, leaseMs, logger } = deps;
  const lease = leaseIn(store, PROJECTOR_LEASE);
  const holder = randomUUID();
  const period = Math.max(100, Math.floor(leaseMs / 3));
  let waiting = false;
  for (;;) {
    if (await lease.take(holder, Date.now(), leaseMs).catch(() => false)) break;
    if (!waiting) {
      logger.info('standing by: another projector holds the lease', { leaseMs });
      waiting = true;
    }
    await new Promise((resolve) => setTimeout(resolve, period));
  }
  logger.info('projector lease taken', { holder });
  let lost = false;
  /** one renewal at a time: against an unreachable store each waits for server selection, and
   * starting one per period would pile them up and send them all when the store comes back */
  let renewing = false;
  const timer = setInterval(async () => {
    if (lost || renewing) return;
    renewing = true;
    try {
      if (await lease.take(holder, Date.now(), leaseMs)) return;
      lost = true;
      clearInterval(timer);
      logger.error('projector lost its lease to another; stopping');
      deps.onLost();
    } catch (error) {
      // the store is unreachable: keep applying until the lease could have run out elsewhere
      logger.warn('projector lease renewal failed', { error: (error as Error).message });
    } finally {
      renewing = false;
    }
  }, period);
  timer.unref();
  return {
    holder,
    async release() {
      clearInterval(timer);
      if (!lost) await lease.release(holder).catch(() => {});
    },
  };
}
