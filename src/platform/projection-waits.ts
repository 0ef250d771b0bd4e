/**
 * How a process's read-your-writes waits are served, by role: `api` and `webhooks` wait on the
 * checkpoints the projector stores; `projector` and `all` run the projection engine in-process,
 * under the projector lease, and wait on it.
 */
import { checkpointId, type Projector } from '../../projections/shared/projector.js';
import type { Config } from '../config/schema.js';
import { createCheckpointWaiter } from '../read/checkpoint-waiter.js';
import { createProjectionEngine, type ProjectionEngine } from '../read/projection-engine.js';
import {
  type HeldLease,
  holdProjectorLease,
  type LeaseWait,
  PROJECTOR_LEASE,
  PROJECTOR_LEASE_ID,
  type SharedLeaseState,
  shareProjectorLease,
} from '../read/projector-lease.js';
import type { HealthReporter } from './health-report.js';
import type { Logger } from './logger.js';
import type { Role } from './role.js';
import type { Stores } from './stores.js';

/**
 * What this process projects with, filled in as the start gets each: the health report and the
 * stop read it meanwhile (a standby projector has neither while it waits for the lease).
 */
export interface Projecting {
  engine?: ProjectionEngine;
  lease?: HeldLease;
  /** a standby projector's last try for the lease, until it holds it */
  leaseWait?: LeaseWait;
  /** a server's (role `all`) last try at its shared lease */
  sharedLease?: SharedLeaseState;
}

/**
 * A projector's `projectorLease` in /readyz. A standby is ready (it does its job: taking over;
 * an unready one would stall rollouts), but not one whose lease's store fails: it could not take
 * over, and an operator must hear of the store rather than of another holder.
 */
export function reportProjectorLease(reporter: HealthReporter, projecting: Projecting): void {
  const wait = () => (projecting.lease ? undefined : projecting.leaseWait);
  reporter.report('projectorLease', () =>
    projecting.lease
      ? { state: 'held', holder: projecting.lease.holder }
      : (wait() ?? { state: 'standing by' }),
  );
  reporter.unready(() => {
    const now = wait();
    return now?.state === 'unavailable'
      ? `the projector lease could not be taken: ${now.error}`
      : undefined;
  });
}

/**
 * A server's (role `all`) `projectorLease` in /readyz: what its last try found, the store's
 * error included, and never a reason to be unready. It projects and serves whatever the lease's
 * store answers (the lease only lets `rebuild` see it), as a projector holding its lease whose
 * renewals fail stays ready: out of rotation it would refuse requests it can serve.
 */
export function reportSharedLease(reporter: HealthReporter, projecting: Projecting): void {
  reporter.report('projectorLease', () => projecting.sharedLease);
}

export interface ProjectionWaits {
  waitFor(position: bigint): Promise<void>;
  caughtUpTo(position: bigint, signal: AbortSignal): Promise<boolean>;
}

export async function startProjectionWaits(
  role: Role,
  deps: {
    config: Config;
    stores: Stores;
    projectors: readonly Projector[];
    logger: Logger;
    /** a `projector` lost its lease to another (it was paused past it): the process should end */
    onLeaseLost?: () => void;
    /** a try to take or renew the projector lease failed on an error of its store */
    onLeaseError?: (error: unknown) => void;
    /** gives up the wait for the lease (a standby's start): the start rejects */
    signal?: AbortSignal;
  },
  projecting: Projecting,
): Promise<ProjectionWaits> {
  const { config, stores, projectors, logger } = deps;
  if (role === 'api' || role === 'webhooks') {
    const waiter = createCheckpointWaiter(stores.readStore, projectors.map(checkpointId), {
      timeoutMs: config.PROJECTION_WAIT_MS,
    });
    return {
      waitFor: (position) => waiter.waitFor(position),
      caughtUpTo: (position, signal) => waiter.caughtUpTo(position, signal),
    };
  }
  const projectorLease = stores.lease(PROJECTOR_LEASE, PROJECTOR_LEASE_ID);
  if (role === 'projector') {
    // one projector at a time over the shared read models; a second one stands by here
    projecting.lease = await holdProjectorLease({
      lease: projectorLease,
      leaseMs: config.PROJECTOR_LEASE_MS,
      logger,
      onLost: () => {
        void projecting.engine?.stop();
        deps.onLeaseLost?.();
      },
      onWait: (wait) => {
        projecting.leaseWait = wait;
      },
      onError: deps.onLeaseError,
      signal: deps.signal,
    });
  } else {
    // not to keep other servers out: so that `rebuild` sees this one projecting and refuses
    projecting.lease = await shareProjectorLease({
      lease: projectorLease,
      leaseMs: config.PROJECTOR_LEASE_MS,
      logger,
      onError: deps.onLeaseError,
      onTry: (state) => {
        projecting.sharedLease = state;
      },
      signal: deps.signal,
    });
  }
  const engine = createProjectionEngine({
    eventStore: stores.eventStore,
    readStore: stores.readStore,
    projectors,
    waitTimeoutMs: config.PROJECTION_WAIT_MS,
    logger,
  });
  projecting.engine = engine;
  await engine.start();
  return {
    waitFor: (position) => engine.waitFor(position),
    caughtUpTo: (position, signal) => engine.caughtUpTo(position, signal),
  };
}
