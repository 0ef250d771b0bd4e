/**
 * Read-your-writes for an API process that runs no projectors (KurrentDB + MongoDB mode):
 * poll the projector checkpoints in the shared read store until all of them reach the position.
 * Bounded: past the timeout the caller gets ProjectionTimeout (the HTTP layer answers 503).
 */
import type { ReadStore } from '../readstore/types.js';
import { ProjectionTimeout } from './waiters.js';

export function createCheckpointWaiter(
  readStore: ReadStore,
  projectorNames: readonly string[],
  options: { pollMs?: number; timeoutMs?: number } = {},
) {
  const pollMs = options.pollMs ?? 20;
  let reached = 0n;

  async function lowest(): Promise<bigint> {
    const stored = await readStore.checkpoints();
    let low: bigint | undefined;
    for (const name of projectorNames) {
      const at = stored.get(name) ?? 0n;
      if (low === undefined || at < low) low = at;
    }
    return low ?? 0n;
  }

  return {
    async waitFor(position: bigint, timeoutMs = options.timeoutMs ?? 10_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (reached < position) {
        reached = await lowest();
        if (reached >= position) return;
        if (Date.now() >= deadline) {
          throw new ProjectionTimeout(
            `the read models did not reach position ${position} within ${timeoutMs} ms`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },
  };
}
