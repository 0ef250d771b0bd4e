/**
 * Reserving a sliding window's place before the event is known to count, as pure steps beside
 * policies.ts. A wrong sign-in code is counted only once compared, but the place it may take has
 * to be held before the comparison: otherwise tries arriving together all see room, all are
 * compared, and only then counted, past the limit. So:
 *
 *  - reserve: refused as a take would be, with the reserved places counted as events; else one
 *    more place is held (`pending`);
 *  - settle: the place is given up, and when the event did happen, counted as a take (so a
 *    lockout starts only with the event that fills the window, as before).
 *
 * A place never settled (a process that stopped mid-way) is counted as an event until it leaves
 * the window: unsure is counted, not forgotten.
 */
import type { LimitState, SlidingWindowPolicy, Step } from './policies.js';
import { step } from './policies.js';

/** the places held at `now`, oldest first (a place stamped later, before the clock went back, at now) */
function held(p: SlidingWindowPolicy, state: LimitState | null, now: number): number[] {
  const since = now - p.windowSeconds * 1000;
  return (state?.pending ?? []).map((t) => Math.min(t, now)).filter((t) => t > since);
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

/** holds one place at `now` (its stamp) when a take would be allowed with the held places counted */
export function reserve(p: SlidingWindowPolicy, state: LimitState | null, now: number): Step {
  const pending = held(p, state, now);
  const counted = { ...(state ?? { expiresAt: now }), hits: [...(state?.hits ?? []), ...pending] };
  counted.hits.sort((a, b) => a - b);
  const { verdict } = step(p, counted, now, false);
  if (!verdict.allowed) {
    // full only with places held for a moment: they are settled within the second
    const settledSoon = step(p, state, now, false).verdict.allowed;
    return {
      next: null,
      verdict: settledSoon ? { allowed: false, retryAfterSeconds: 1 } : verdict,
    };
  }
  const base: LimitState = state ?? { expiresAt: now };
  return {
    next: withPending(p, base, [...pending, now], now),
    verdict: { allowed: true, remaining: verdict.remaining - 1 },
  };
}

/**
 * Gives up the place stamped `at`; when `happened`, counts the event as a take would. The
 * verdict is the take's (refused when a lockout began meanwhile: nothing more is counted).
 */
export function settle(
  p: SlidingWindowPolicy,
  state: LimitState | null,
  now: number,
  at: number,
  happened: boolean,
): Step {
  const pending = held(p, state, now);
  const mine = pending.indexOf(Math.min(at, now));
  if (mine >= 0) pending.splice(mine, 1);
  const base = withPending(p, state ?? { expiresAt: now }, pending, now);
  if (!happened) return { next: base, verdict: { allowed: true, remaining: 0 } };
  const taken = step(p, base, now, true);
  return { next: withPending(p, taken.next ?? base, pending, now), verdict: taken.verdict };
}
