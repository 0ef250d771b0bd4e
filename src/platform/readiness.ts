/**
 * What makes `/readyz` answer 503 (readiness): the process cannot do its work, though it runs.
 *  - the event store refused the last append for a reason other than a concurrent writer (a
 *    full disk, a lost server), within the last APPEND_FAILURE_HOLD_MS: writes answer 503 until
 *    one goes through again. Only that long: a process out of rotation gets no write to prove
 *    the store back (observability audit: after the disk was freed, `/readyz` stayed 503 for
 *    good under an orchestrator), and a write failing again marks it anew;
 *  - a projector behind the log has not moved for longer than writes wait for their read models
 *    (PROJECTION_WAIT_MS): writes answer 503 and reads are stale until it moves again;
 *  - the read store refuses the read models' writes (a full disk), or the projection engine
 *    stopped on an error it could not retry;
 *  - what a component reports through the health reporter's `unready`: a standby projector whose
 *    lease's store fails (projection-waits.ts), which could not take over.
 * A projector that is merely behind (a burst, a rebuild) is moving, and so is ready.
 */
import type { HealthReport } from './service.js';

export interface Readiness {
  /** an append failed (not a revision conflict) */
  appendFailed(error: unknown): void;
  /** an append went through */
  appended(): void;
  /** why the process is not ready, empty when it is; `projections` from this health check */
  reasons(projections: HealthReport['projections']): string[];
}

/** how long a refused append keeps the process out of rotation without another one */
export const APPEND_FAILURE_HOLD_MS = 30_000;

export function createReadiness(options: { stallMs: number; now?: () => number }): Readiness {
  // monotonic: a step back of the wall clock would hold a refused append for the step's length
  const now = options.now ?? (() => performance.now());
  let appendFailure: { message: string; at: number } | null = null;
  /** per projector behind the log: the checkpoint last seen, and since when */
  const seen = new Map<string, { checkpoint: string; since: number }>();
  return {
    appendFailed(error) {
      appendFailure = {
        message: error instanceof Error ? error.message : String(error),
        at: now(),
      };
    },
    appended() {
      appendFailure = null;
    },
    reasons(projections) {
      const reasons: string[] = [];
      if (appendFailure !== null && now() - appendFailure.at < APPEND_FAILURE_HOLD_MS) {
        reasons.push(`the event store refused the last append: ${appendFailure.message}`);
      }
      if (projections.flushFailure) {
        reasons.push(
          `the read store refused the read models' last flush: ${projections.flushFailure}`,
        );
      }
      if (projections.stopped)
        reasons.push(`the projection engine stopped: ${projections.stopped}`);
      const at = now();
      for (const { name, checkpoint, lag } of projections.projectors) {
        const last = seen.get(name);
        if (lag === '0') seen.delete(name);
        else if (last?.checkpoint !== checkpoint) seen.set(name, { checkpoint, since: at });
        else if (at - last.since > options.stallMs) {
          const seconds = Math.round((at - last.since) / 1000);
          reasons.push(`projector ${name} has not moved for ${seconds} s, ${lag} events behind`);
        }
      }
      return reasons;
    },
  };
}
