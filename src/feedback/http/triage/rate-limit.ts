/**
 * A fixed-window counter per key (e.g. per caller): at most `limit` hits in each window of
 * `windowMs`; past that, the caller learns how many seconds remain until the window resets.
 * Held in memory, so each API process counts on its own — a bound against bursts, not an exact
 * quota across a cluster.
 */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface FixedWindowLimiter {
  take(key: string): RateDecision;
}

const SWEEP_AT = 10_000;

export function createFixedWindowLimiter(
  { limit, windowMs }: RateLimit,
  now: () => number,
): FixedWindowLimiter {
  const windows = new Map<string, { startedAt: number; hits: number }>();

  function sweep(at: number): void {
    for (const [key, window] of windows) if (at - window.startedAt >= windowMs) windows.delete(key);
  }

  return {
    take(key) {
      const at = now();
      if (windows.size >= SWEEP_AT) sweep(at);
      let window = windows.get(key);
      if (!window || at - window.startedAt >= windowMs) {
        window = { startedAt: at, hits: 0 };
        windows.set(key, window);
      }
      if (window.hits >= limit) {
        const remainingMs = window.startedAt + windowMs - at;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(remainingMs / 1000)) };
      }
      window.hits++;
      return { allowed: true };
    },
  };
}
