/**
 * The two counting rules of the limits module, as pure functions of (stored state, now) so they
 * are tested without a store and cannot disagree between processes:
 *
 *  - sliding window (sliding-window.ts): at most `max` events in ANY `windowSeconds` span;
 *    optionally a lockout that starts when the window fills and grows with each repeat;
 *  - token bucket (token-bucket.ts): `capacity` tokens, one more every `refillEverySeconds`;
 *    bursts up to the capacity, then a steady rate.
 *
 * Here: which rule a policy names, and the one step every take and peek goes through.
 */
import type { LimitState, Step } from './limit-state.js';
import { reclockWindow, type SlidingWindowPolicy, slidingWindow } from './sliding-window.js';
import { reclockBucket, type TokenBucketPolicy, tokenBucket } from './token-bucket.js';

export type Policy = SlidingWindowPolicy | TokenBucketPolicy;

/**
 * One take (consume = true) or peek (false) under `policy`, of `count` events at once (a take
 * that asks more than the policy holds is never allowed). A state stamped later than `now` was
 * written before the clock was set back: its times are brought back to `now` (and written, even
 * by a refusal or a peek), or the window, lockout or refill would last as much longer as the
 * clock went back — an hour's step back would lock a sign-in out for an hour more.
 */
export function step(
  policy: Policy,
  state: LimitState | null,
  now: number,
  consume: boolean,
  count = 1,
): Step {
  const reclocked = state && reclock(policy, state, now);
  const result = stepOn(policy, reclocked ?? state, now, consume, count);
  return reclocked && !result.next ? { next: reclocked, verdict: result.verdict } : result;
}

/** `state` with no time later than `now` allows, or null when it has none. */
function reclock(policy: Policy, state: LimitState, now: number): LimitState | null {
  return policy.kind === 'token-bucket'
    ? reclockBucket(policy, state, now)
    : reclockWindow(policy, state, now);
}

function stepOn(
  policy: Policy,
  state: LimitState | null,
  now: number,
  consume: boolean,
  count: number,
): Step {
  switch (policy.kind) {
    case 'sliding-window':
      return slidingWindow(policy, state, now, consume, count);
    case 'token-bucket':
      return tokenBucket(policy, state, now, consume, count);
    default: {
      const _exhaustive: never = policy;
      return _exhaustive;
    }
  }
}
