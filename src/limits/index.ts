/**
 * Rate limits and lockouts shared by every feature (sign-in codes, client registration, and the
 * public board's buckets). Usage:
 *
 *   const limits = createLimits({ readStore, now });
 *   const perIp = limits.limiter('registration-ip', { kind: 'sliding-window', max: 20, windowSeconds: 600 });
 *   const verdict = await perIp.take(ip);
 *   if (!verdict.allowed) answer429(verdict.retryAfterSeconds);
 *
 * `take(key)` counts one event when allowed; `peek(key)` asks without counting (for example
 * "is this address locked out?"). `reserve(key)` holds a place before the event is known to count
 * and `settle(key, at, happened)` counts it or gives it back (reservations.ts): a wrong code's
 * place is held before the code is compared. `holdAll(places)` holds one in several limits, all or
 * none, and is how a caller asks before acting (holds.ts). See policies.ts for the rules.
 */
export { type Hold, holdAll, type Place, settling } from './holds.js';
export type { Verdict } from './limit-state.js';
export type { Policy } from './policies.js';
export { type LockoutPolicy, lockoutSeconds, type SlidingWindowPolicy } from './sliding-window.js';
export type { TokenBucketPolicy } from './token-bucket.js';
export {
  createLimits,
  type Limiter,
  type Limits,
  LIMITS_COLLECTION,
  longestWait,
} from './store.js';
