/**
 * The token-bucket rule (policies.ts): `capacity` tokens, one more every `refillEverySeconds`;
 * bursts up to the capacity, then a steady rate — and the tokens held for requests in flight
 * (reservations.ts), which may be given back at any moment.
 */
import { HELD_AT_MOST_MS, type LimitState, refused, type Step } from './limit-state.js';

export interface TokenBucketPolicy {
  kind: 'token-bucket';
  capacity: number;
  refillEverySeconds: number;
}

/**
 * A bucket's tokens held for requests still in flight (their stamps, brought back to `now` if
 * stamped before the clock went back): each may be given back at any moment.
 */
export function tokensInFlight(state: LimitState | null, now: number): number[] {
  return (state?.pending ?? [])
    .map((t) => Math.min(t, now))
    .filter((t) => t > now - HELD_AT_MOST_MS);
}

/** the tokens a bucket has at `now`: those left at its last change, plus the refill since */
export function tokensAt(p: TokenBucketPolicy, state: LimitState | null, now: number): number {
  const elapsed = Math.max(0, now - (state?.at ?? now));
  return Math.min(
    p.capacity,
    (state?.tokens ?? p.capacity) + elapsed / (p.refillEverySeconds * 1000),
  );
}

export function tokenBucket(
  p: TokenBucketPolicy,
  state: LimitState | null,
  now: number,
  consume: boolean,
  count: number,
): Step {
  const refillMs = p.refillEverySeconds * 1000;
  const tokens = tokensAt(p, state, now);
  if (tokens < count) {
    // RFC 9110 §10.2.3: Retry-After says when a retry can succeed. The refill brings `count`
    // tokens then; but tokens held by requests in flight may be given back sooner, at any moment
    // (one refused by another limit, one that filed nothing), and when they would be enough a
    // retry may succeed a second from now: the sooner of the two
    const back = Math.min(p.capacity, tokens + tokensInFlight(state, now).length) >= count;
    const refill = (count - tokens) * refillMs;
    return { next: null, verdict: refused(back ? Math.min(1000, refill) : refill) };
  }
  if (!consume) return { next: null, verdict: { allowed: true, remaining: Math.floor(tokens) } };
  const left = tokens - count;
  return {
    next: {
      tokens: left,
      at: now,
      ...(state?.pending ? { pending: state.pending } : {}),
      expiresAt: now + Math.ceil((p.capacity - left) * refillMs),
    },
    verdict: { allowed: true, remaining: Math.floor(left) },
  };
}

/** a bucket's `state` with no time later than `now` allows, or null when it has none */
export function reclockBucket(
  policy: TokenBucketPolicy,
  state: LimitState,
  now: number,
): LimitState | null {
  if ((state.at ?? now) <= now) return null;
  const missing = policy.capacity - (state.tokens ?? policy.capacity);
  return {
    ...state,
    at: now,
    expiresAt: now + Math.ceil(missing * policy.refillEverySeconds * 1000),
  };
}
