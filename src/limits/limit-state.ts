/**
 * What a counting rule of the limits module reads and answers (policies.ts): the state one key
 * keeps (and how long a place held in it stays in flight), one step's outcome, and the verdict a
 * limiter gives.
 */

/** What a limiter answers: allowed (and how many more fit now), or when to try again. */
export type Verdict =
  | { allowed: true; remaining: number }
  | { allowed: false; retryAfterSeconds: number };

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

/**
 * How long a place is held at most while its request is in flight: the longest action done under
 * one is a code mailed over SMTP, whose connection nodemailer gives up after 2 minutes (a webhook
 * test gives up after 15 s). A place held longer was left by a process that stopped, or a settle
 * the store refused: it is never given back, only leaves the window (or is refilled) as an event
 * does.
 */
export const HELD_AT_MOST_MS = 2 * 60_000;

export interface Step {
  /** null: nothing to write (a refusal changes no state) */
  next: LimitState | null;
  verdict: Verdict;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export function refused(ms: number): Verdict {
  return { allowed: false, retryAfterSeconds: seconds(ms) };
}
