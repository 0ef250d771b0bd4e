/**
 * Reserving a place before the event is known to count, as pure steps beside policies.ts. A
 * wrong sign-in code is counted only once compared, a submission only once filed, but the place
 * it may take has to be held before: otherwise requests arriving together all see room, all act,
 * and only then are counted, past the limit. So:
 *
 *  - reserve: refused as a take of `count` would be, with the places held counted as events;
 *    else `count` more places are held (a window's `pending`; a bucket's tokens, taken, and
 *    stamped in its `pending` while in flight, so a refusal can say one may come back soon);
 *  - settle: the places are given up, and when the event did happen, counted as a take (so a
 *    lockout starts only with the event that fills the window, as before); a bucket keeps its
 *    tokens taken, or has them back (never past its capacity).
 *
 * A place never settled (a process that stopped mid-way) is counted as an event until it leaves
 * the window (or is refilled): unsure is counted, not forgotten.
 */
import { HELD_AT_MOST_MS, type LimitState, type Step } from './limit-state.js';
import { type Policy, step } from './policies.js';
import type { SlidingWindowPolicy } from './sliding-window.js';
import { type TokenBucketPolicy, tokensAt, tokensInFlight } from './token-bucket.js';

/** the places held at `now`, oldest first (a place stamped later, before the clock went back, at now) */
function held(p: SlidingWindowPolicy, state: LimitState | null, now: number): number[] {
  const since = now - p.windowSeconds * 1000;
  return (state?.pending ?? []).map((t) => Math.min(t, now)).filter((t) => t > since);
}

/** `state` with `places` counted as events at their stamps */
function withHits(state: LimitState | null, places: number[], now: number): LimitState {
  const hits = [...(state?.hits ?? []), ...places].sort((a, b) => a - b);
  return { ...(state ?? { expiresAt: now }), hits };
}

function withPending(
  p: SlidingWindowPolicy,
  state: LimitState,
  pending: number[],
  now: number,
): LimitState {
  const { pending: _dropped, ...rest } = state;
  if (pending.length === 0) return rest;
  const last = pending.at(-1) as number;
  return {
    ...rest,
    pending,
    expiresAt: Math.max(rest.expiresAt, last + p.windowSeconds * 1000, now),
  };
}

/** holds `count` places at `now` (their stamp) when a take of them would be allowed */
export function reserve(p: Policy, state: LimitState | null, now: number, count = 1): Step {
  if (p.kind === 'token-bucket') return reserveTokens(p, state, now, count);
  const pending = held(p, state, now);
  const { verdict } = step(p, withHits(state, pending, now), now, false, count);
  if (!verdict.allowed) {
    // full only with places whose requests are still in flight: one given back frees a place
    // at any moment (Retry-After: 1); a place left behind counts as an event until it leaves
    const left = pending.filter((t) => t <= now - HELD_AT_MOST_MS);
    const freedSoon = step(p, withHits(state, left, now), now, false, count).verdict.allowed;
    return {
      next: null,
      verdict: freedSoon ? { allowed: false, retryAfterSeconds: 1 } : verdict,
    };
  }
  const base: LimitState = state ?? { expiresAt: now };
  const mine: number[] = Array.from({ length: count }, () => now);
  return {
    next: withPending(p, base, [...pending, ...mine], now),
    verdict: { allowed: true, remaining: verdict.remaining - count },
  };
}

/**
 * Gives up the `count` places stamped `at`; when `happened`, counts the events as a take would.
 * The verdict is the take's (refused when a lockout began meanwhile: nothing more is counted).
 */
export function settle(
  p: Policy,
  state: LimitState | null,
  now: number,
  at: number,
  happened: boolean,
  count = 1,
): Step {
  if (p.kind === 'token-bucket') return settleTokens(p, state, now, at, happened, count);
  const pending = held(p, state, now);
  for (let i = 0; i < count; i++) {
    const mine = pending.indexOf(Math.min(at, now));
    if (mine >= 0) pending.splice(mine, 1);
  }
  const base = withPending(p, state ?? { expiresAt: now }, pending, now);
  if (!happened) return { next: base, verdict: { allowed: true, remaining: 0 } };
  const taken = step(p, base, now, true, count);
  return { next: withPending(p, taken.next ?? base, pending, now), verdict: taken.verdict };
}

/**
 * a bucket's tokens are taken as they are held, and stamped among its `pending` while their
 * requests are in flight: a refusal meanwhile knows they may come back (token-bucket.ts)
 */
function reserveTokens(
  p: TokenBucketPolicy,
  state: LimitState | null,
  now: number,
  count: number,
): Step {
  const taken = step(p, state, now, true, count);
  if (!taken.verdict.allowed || !taken.next) return taken;
  const mine: number[] = Array.from({ length: count }, () => now);
  const pending = [...tokensInFlight(state, now), ...mine];
  return { next: { ...taken.next, pending }, verdict: taken.verdict };
}

/**
 * a bucket's reserved tokens were taken: kept when the event happened, else put back — those
 * still in flight; one held past HELD_AT_MOST_MS, or whose bucket refilled and was dropped
 * meanwhile, is not put back twice
 */
function settleTokens(
  p: TokenBucketPolicy,
  state: LimitState | null,
  now: number,
  at: number,
  happened: boolean,
  count: number,
): Step {
  const { verdict } = step(p, state, now, false, 0);
  const pending = tokensInFlight(state, now);
  let mine = 0;
  for (; mine < count; mine++) {
    const i = pending.indexOf(Math.min(at, now));
    if (i < 0) break;
    pending.splice(i, 1);
  }
  if (!state || mine === 0) return { next: null, verdict };
  const refillMs = p.refillEverySeconds * 1000;
  const tokens = Math.min(p.capacity, tokensAt(p, state, now) + (happened ? 0 : mine));
  return {
    next: {
      tokens,
      at: now,
      ...(pending.length > 0 ? { pending } : {}),
      expiresAt: now + Math.ceil((p.capacity - tokens) * refillMs),
    },
    verdict: happened ? verdict : { allowed: true, remaining: Math.floor(tokens) },
  };
}
