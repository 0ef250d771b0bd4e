/**
 * Per-caller budgets of expensive operations (src/http/operation.ts `throttled`). A search embeds
 * its query on the one embedder thread of the process, which every caller of both services
 * shares: an audit's single account sending 20 searches at once slowed everyone's searches from
 * 30 ms to 2.3 s. Each caller gets a token bucket (kept in the store, so every API process of a
 * service counts against the same figures): a burst, then an even refill.
 */
import { ResourceExhausted } from '../../commands/shared/errors.js';
import type { Config } from '../config/schema.js';
import type { ReadStore } from '../readstore/types.js';
import { createLimits } from './store.js';

/**
 * The `throttle` hook of a service (lifecycle.ts): one call from the caller's budget, or 429
 * (`peek`: 429 when it is spent, counting nothing).
 * The caller is the account (`userId`): its tokens and apps share one budget.
 */
export function callerBudgets(deps: {
  readStore: ReadStore;
  now: () => number;
  config: Pick<Config, 'SEARCHES_PER_CALLER_BURST' | 'SEARCHES_PER_CALLER_PER_HOUR'>;
  service: string;
}): (
  budget: 'searches',
  caller: { userId: string } | undefined,
  mode: 'take' | 'peek',
) => Promise<void> {
  const { config } = deps;
  const limits = createLimits({ readStore: deps.readStore, now: deps.now });
  const searches = limits.limiter(`${deps.service}:searches-caller`, {
    kind: 'token-bucket',
    capacity: config.SEARCHES_PER_CALLER_BURST,
    refillEverySeconds: 3600 / config.SEARCHES_PER_CALLER_PER_HOUR,
  });
  return async (_budget, caller, mode) => {
    if (!caller) return; // an operation without a caller is not one an account can flood
    const verdict = await (mode === 'peek' ? searches.peek : searches.take)(caller.userId);
    if (!verdict.allowed) {
      const wait = verdict.retryAfterSeconds;
      throw new ResourceExhausted(`too many searches; try again in ${wait} s`, wait);
    }
  };
}
