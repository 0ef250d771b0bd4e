/**
 * A process's stop as a list of named steps, each run whatever the earlier ones did: a step that
 * fails (a full disk refusing the last flush, a lost database server) is one log line with its
 * cause, and the steps after it still release what they hold (a lease another process waits for,
 * the data file's lock). The audit: a webhook worker's last save on a full disk threw out of
 * the stop, its lease was never released, the process died with a stack trace.
 */
import type { Logger } from './logger.js';

export interface StopStep {
  /** what the step stops, for the log line (`webhook worker`, `stores`) */
  name: string;
  run(): Promise<void>;
  /**
   * it ends with the read store's last flush: when it fails, what only memory held since the
   * flush before (webhook delivery records, sign-in state, read-model documents) may be lost
   */
  flushes?: boolean;
}

export interface StopOutcome {
  /** the names of the steps that failed */
  failed: string[];
  /** a step that writes failed: what it held in memory may not be on disk */
  dataMayBeLost: boolean;
}

export async function runStopSteps(
  steps: readonly StopStep[],
  logger: Logger,
): Promise<StopOutcome> {
  const outcome: StopOutcome = { failed: [], dataMayBeLost: false };
  for (const step of steps) {
    try {
      await step.run();
    } catch (error) {
      outcome.failed.push(step.name);
      outcome.dataMayBeLost ||= step.flushes === true;
      logger.error('stop step failed', {
        step: step.name,
        cause: error instanceof Error ? error.message : String(error),
        dataMayBeLost: step.flushes === true,
      });
    }
  }
  return outcome;
}
