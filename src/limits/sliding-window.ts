/**
 * The sliding-window rule (policies.ts): at most `max` events in ANY `windowSeconds` span — an
 * exact log of the last `max` timestamps, so no burst of twice the limit across a boundary as
 * with clock-aligned windows — optionally with a lockout that starts when the window fills and
 * grows with each repeat.
 */
import { type LimitState, refused, type Step } from './limit-state.js';

export interface LockoutPolicy {
  /** the first lockout, once the window has filled */
  baseSeconds: number;
  /** each further lockout lasts `factor` times the previous one ... */
  factor: number;
  /** ... up to this */
  maxSeconds: number;
  /** a key that stayed out of trouble this long after its last lockout starts over at `baseSeconds` */
  forgetAfterSeconds: number;
}

export interface SlidingWindowPolicy {
  kind: 'sliding-window';
  max: number;
  windowSeconds: number;
  lockout?: LockoutPolicy;
}

export function lockoutSeconds(policy: LockoutPolicy, strikes: number): number {
  return Math.min(policy.maxSeconds, policy.baseSeconds * policy.factor ** strikes);
}

export function slidingWindow(
  p: SlidingWindowPolicy,
  state: LimitState | null,
  now: number,
  consume: boolean,
  count: number,
): Step {
  const windowMs = p.windowSeconds * 1000;
  const lockedUntil = state?.lockedUntil ?? 0;
  if (lockedUntil > now) return { next: null, verdict: refused(lockedUntil - now) };
  const forgotten =
    p.lockout && lockedUntil > 0 && now - lockedUntil >= p.lockout.forgetAfterSeconds * 1000;
  let strikes = forgotten ? 0 : (state?.strikes ?? 0);
  const hits = (state?.hits ?? []).filter((t) => t > now - windowMs);
  // `count` events fit once the hits before the last `max - count` have left the window
  if (hits.length + count > p.max) {
    const leaving = hits[Math.min(hits.length - 1, hits.length + count - p.max - 1)] ?? now;
    return { next: null, verdict: refused(leaving + windowMs - now) };
  }
  if (!consume) return { next: null, verdict: { allowed: true, remaining: p.max - hits.length } };
  for (let i = 0; i < count; i++) hits.push(now);
  let locked = 0;
  if (p.lockout && hits.length >= p.max) {
    locked = now + lockoutSeconds(p.lockout, strikes) * 1000;
    strikes += 1;
    hits.length = 0;
  }
  const keepStrikes = p.lockout && strikes > 0;
  const next: LimitState = {
    hits,
    ...(state?.pending ? { pending: state.pending } : {}),
    ...(locked ? { lockedUntil: locked } : lockedUntil && keepStrikes ? { lockedUntil } : {}),
    ...(keepStrikes ? { strikes } : {}),
    expiresAt: Math.max(
      hits.length ? (hits.at(-1) as number) + windowMs : now,
      keepStrikes
        ? (locked || lockedUntil) + (p.lockout as LockoutPolicy).forgetAfterSeconds * 1000
        : now,
    ),
  };
  return { next, verdict: { allowed: true, remaining: locked ? 0 : p.max - hits.length } };
}

/** a window's `state` with no time later than `now` allows, or null when it has none */
export function reclockWindow(
  policy: SlidingWindowPolicy,
  state: LimitState,
  now: number,
): LimitState | null {
  const hits = state.hits ?? [];
  const strikes = state.strikes ?? 0;
  const lockedFor = policy.lockout ? lockoutSeconds(policy.lockout, Math.max(0, strikes - 1)) : 0;
  const lockedUntil = Math.min(state.lockedUntil ?? 0, now + lockedFor * 1000);
  if (hits.every((t) => t <= now) && lockedUntil === (state.lockedUntil ?? 0)) return null;
  const next: LimitState = { ...state, hits: hits.map((t) => Math.min(t, now)) };
  if (state.lockedUntil) next.lockedUntil = lockedUntil;
  const forget = policy.lockout && strikes > 0 ? policy.lockout.forgetAfterSeconds * 1000 : 0;
  next.expiresAt = Math.max(
    hits.length ? Math.min(hits.at(-1) as number, now) + policy.windowSeconds * 1000 : now,
    forget ? lockedUntil + forget : now,
  );
  return next;
}
