/**
 * The two counting rules of the limits module, as pure functions of (stored state, now) so they
 * are tested without a store and cannot disagree between processes:
 *
 *  - sliding window: at most `max` events in ANY `windowSeconds` span (an exact log of the last
 *    `max` timestamps, so no burst of twice the limit across a boundary as with clock-aligned
 *    windows); optionally a lockout that starts when the window fills and grows with each repeat;
 *  - token bucket: `capacity` tokens, one more every `refillEverySeconds`; bursts up to the
 *    capacity, then a steady rate.
 */

/** What a limiter answers: allowed (and how many more fit now), or when to try again. */
export type Verdict =
  | { allowed: true; remaining: number }
  | { allowed: false; retryAfterSeconds: number };

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

export interface TokenBucketPolicy {
  kind: 'token-bucket';
  capacity: number;
  refillEverySeconds: number;
}

export type Policy = SlidingWindowPolicy | TokenBucketPolicy;

/** The state one key keeps; every field optional so both rules share one document shape. */
export interface LimitState {
  /** sliding window: times (ms) of the counted events inside the window, oldest first */
  hits?: number[];
  /**
   * places held (ms) for events not yet known to count (reservations.ts): a window's, not yet
   * counted; a bucket's, their tokens taken but perhaps given back
   */
  pending?: number[];
  /** lockout: until when (ms) every take is refused */
  lockedUntil?: number;
  /** lockout: how many lockouts this key has had (drives the growth) */
  strikes?: number;
  /** token bucket: tokens left at `at` (ms) */
  tokens?: number;
  at?: number;
  /** when (ms) the state equals a fresh one and may be dropped */
  expiresAt: number;
}

export interface Step {
  /** null: nothing to write (a refusal changes no state) */
  next: LimitState | null;
  verdict: Verdict;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * How long a place is held at most while its request is in flight: the longest action done under
 * one is a code mailed over SMTP, whose connection nodemailer gives up after 2 minutes (a webhook
 * test gives up after 15 s). A place held longer was left by a process that stopped, or a settle
 * the store refused: it is never given back, only leaves the window (or is refilled) as an event
 * does.
 */
export const HELD_AT_MOST_MS = 2 * 60_000;

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

export function lockoutSeconds(policy: LockoutPolicy, strikes: number): number {
  return Math.min(policy.maxSeconds, policy.baseSeconds * policy.factor ** strikes);
}

function slidingWindow(
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

function tokenBucket(
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

function refused(ms: number): Verdict {
  return { allowed: false, retryAfterSeconds: seconds(ms) };
}

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
  if (policy.kind === 'token-bucket') {
    if ((state.at ?? now) <= now) return null;
    const missing = policy.capacity - (state.tokens ?? policy.capacity);
    return {
      ...state,
      at: now,
      expiresAt: now + Math.ceil(missing * policy.refillEverySeconds * 1000),
    };
  }
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
