/**
 * Actions whose rule spans more than one stream (a name unique per user, a parent that must not
 * be deleted, a most-webhooks-per-workspace count) serialise through a stream of intents or
 * claims and look again when another writer's came first. This is the loop they run.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Unavailable } from '../../commands/shared/errors.js';

/** What an attempt answers when a concurrent change came first and it must look again. */
export const again = Symbol('again');

/** How long an action keeps looking again, as the command handler retries a busy stream. */
const settleDeadlineMs = 5_000;

/**
 * Run `attempt` until it settles. `again` means that a concurrent change came first (a claim or
 * an intent lost its race, the resource moved after it was read, a change it depends on is in
 * flight): it looks again after a short jittered pause, up to a deadline, and then answers
 * Unavailable (503 with Retry-After) as a busy stream does.
 */
export async function untilSettled<R>(
  attempt: () => Promise<R | typeof again>,
  what: string,
): Promise<R> {
  const deadline = performance.now() + settleDeadlineMs;
  for (let round = 0; ; round++) {
    const result = await attempt();
    if (result !== again) return result;
    if (performance.now() >= deadline) {
      throw new Unavailable(`too many concurrent changes to ${what}; try again`, 1);
    }
    await sleep(Math.random() * Math.min(50, 2 ** round));
  }
}
