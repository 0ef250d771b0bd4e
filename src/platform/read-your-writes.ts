/**
 * Read-your-writes as the runtime hands it to the services (`ServiceContext.waitFor`): timed —
 * how long answers wait for their read models, and how often in vain — and, when a wait runs out
 * (the write is answered 503), one warning naming the projectors behind the position waited
 * for, each with its checkpoint: the 503 alone does not say which read model is stuck. While a
 * projector stays stuck every write runs out: one warning per REPORT_EVERY_MS, then, says how
 * many more ran out since the last (`moreTimeouts`) — not a line per request, nor (in a split
 * deployment) a read of the checkpoints per request from a store that may be the trouble.
 */
import type { ProjectorCheckpoint } from '../read/projector-lag.js';
import { ProjectionTimeout } from '../read/waiters.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

const REPORT_EVERY_MS = 10_000;

export function timedWait(
  waitFor: (position: bigint) => Promise<void>,
  deps: {
    metrics: Metrics;
    logger: Logger;
    /** the projectors' checkpoints now: the engine's in this process, else the stored ones */
    checkpoints(): ProjectorCheckpoint[] | Promise<ProjectorCheckpoint[]>;
  },
): (position: bigint) => Promise<void> {
  const { metrics } = deps;
  let reportedAt = Number.NEGATIVE_INFINITY;
  let unreported = 0;
  return async (position) => {
    const started = performance.now();
    try {
      await waitFor(position);
    } catch (error) {
      if (error instanceof ProjectionTimeout) {
        metrics.readYourWritesTimeouts.inc();
        const now = performance.now();
        if (now - reportedAt < REPORT_EVERY_MS) unreported += 1;
        else {
          reportedAt = now;
          // not awaited: the answer does not wait for its log line
          void reportBehind(deps, position, Math.round(now - started), unreported);
          unreported = 0;
        }
      }
      throw error;
    } finally {
      metrics.readYourWritesWait.observe((performance.now() - started) / 1000);
    }
  };
}

async function reportBehind(
  deps: Pick<Parameters<typeof timedWait>[1], 'logger' | 'checkpoints'>,
  position: bigint,
  waitedMs: number,
  moreTimeouts: number,
): Promise<void> {
  const message = 'read models did not catch up within PROJECTION_WAIT_MS';
  const fields = { position: String(position), waitedMs, moreTimeouts };
  try {
    const behind = (await deps.checkpoints())
      .filter((p) => p.checkpoint < position)
      .map((p) => ({ name: p.name, checkpoint: String(p.checkpoint) }));
    deps.logger.warn(message, { ...fields, projectors: behind });
  } catch (error) {
    // the read store did not give the checkpoints: the warning says so rather than nothing
    deps.logger.warn(message, { ...fields, checkpointsUnread: (error as Error).message });
  }
}
