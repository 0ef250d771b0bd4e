/**
 * Reserving a place before the event is known to count, as pure steps beside policies.ts. A
 * wrong sign-in code is counted only once compared, a submission only once filed, but the place
 * it may take has to be held before: otherwise requests arriving together all see room, all act,
 * and only then are counted, past the limit. So:
 *
 *  - reserve: refused as a take of `count` would be, with the places held counted as events;
 *    else `count` more places are held (a window's `pending`; a bucket's tokens, taken);
 *  - settle: the places are given up, and when the event did happen, counted as a take (so a
 *    lockout starts only with the event that fills the window, as before); a bucket keeps its
 *    tokens taken, or has them back (never past its capacity).
 *
 * A place never settled (a process that stopped mid-way) is counted as an event until it leaves
 * the window (or is refilled): unsure is counted, not forgotten.
 */
import type {
  LimitState,
  Policy,
  SlidingWindowPolicy,
  Step,
  TokenBucketPolicy,
} from './policies.js';
import { step } from './policies.js';

/**
 * How long a place is held at most while its request is in flight: the longest action done under
 * one is a code mailed over SMTP, whose connection nodemailer gives up after 2 minutes (a webhook
 * test gives up after 15 s). A place held longer was left by a process that stopped, or a settle
 * the store refused: it is never given back, only leaves the window as an event does.
 */
export const HELD_AT_MOST_MS = 2 * 60_000;

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
  if (p.kind === 'token-bucket') return step(p, state, now, true, count);
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
  if (p.kind === 'token-bucket') return settleTokens(p, state, now, happened, count);
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

/** a bucket's reserved tokens were taken: kept when the event happened, else put back */
function settleTokens(
  p: TokenBucketPolicy,
  state: LimitState | null,
  now: number,
  happened: boolean,
  count: number,
): Step {
  const { verdict } = step(p, state, now, false, 0);
  if (happened || !state) return { next: null, verdict };
  const refillMs = p.refillEverySeconds * 1000;
  const elapsed = Math.max(0, now - (state.at ?? now));
  const had = Math.min(p.capacity, (state.tokens ?? p.capacity) + elapsed / refillMs);
  const tokens = Math.min(p.capacity, had + count);
  return {
    next: { tokens, at: now, expiresAt: now + Math.ceil((p.capacity - tokens) * refillMs) },
    verdict: { allowed: true, remaining: Math.floor(tokens) },
  };
}
