/**
 * Places held before an event is known to count (src/limits/reservations.ts), as the sign-in
 * throttle holds one for each code before comparing it. README (Security, Sign-in throttles):
 * "| wrong codes for one address | 10 per hour, then a lockout |" — 3 here.
 */
import { expect } from 'chai';
import type { LimitState } from '../../src/limits/limit-state.js';
import type { SlidingWindowPolicy } from '../../src/limits/sliding-window.js';
import type { TokenBucketPolicy } from '../../src/limits/token-bucket.js';
import { reserve, settle } from '../../src/limits/reservations.js';

const MIN = 60_000;
const window: SlidingWindowPolicy = {
  kind: 'sliding-window',
  max: 3,
  windowSeconds: 60 * 60,
  lockout: { baseSeconds: 15 * 60, factor: 2, maxSeconds: 24 * 3600, forgetAfterSeconds: 86_400 },
};

/** holds places at the given times, returning the state and whether each was held */
function held(times: number[], from: LimitState | null = null) {
  let state = from;
  const allowed = times.map((at) => {
    const { next, verdict } = reserve(window, state, at);
    if (next) state = next;
    return verdict.allowed;
  });
  return { state, allowed };
}

describe('When places are held in a sliding window before the events are known', () => {
  it('holds no more places than the window has room for, however many are asked at once', () => {
    expect(held([1, 2, 3, 4, 5]).allowed).to.deep.equal([true, true, true, false, false]);
  });

  it('refuses with a one-second retry while the window is full only of places held', () => {
    const { state } = held([1, 2, 3]);
    const { verdict } = reserve(window, state, 4);
    expect(verdict).to.deep.equal({ allowed: false, retryAfterSeconds: 1 });
  });

  it('gives a place back when the event did not happen, counting nothing', () => {
    const { state } = held([1, 2, 3]);
    const { next } = settle(window, state, 10, 2, false);
    expect(next?.hits ?? []).to.deep.equal([]);
    expect(next?.pending).to.deep.equal([1, 3]);
    expect(reserve(window, next, 11).verdict.allowed).to.equal(true);
  });

  it('starts the lockout with the event that fills the window, once it is known to have happened', () => {
    let { state } = held([1, 2, 3]);
    for (const at of [1, 2]) state = settle(window, state, 10, at, true).next;
    expect(state?.lockedUntil).to.equal(undefined);
    const last = settle(window, state, 20, 3, true);
    expect(last.next?.lockedUntil).to.equal(20 + 15 * MIN);
    expect(reserve(window, last.next, 30).verdict).to.deep.equal({
      allowed: false,
      retryAfterSeconds: 15 * 60,
    });
  });

  it('counts a place never settled until it leaves the window', () => {
    const { state } = held([0, 1, 2]);
    expect(reserve(window, state, 60 * MIN - 1).verdict.allowed).to.equal(false);
    expect(reserve(window, state, 60 * MIN + 1).verdict.allowed).to.equal(true);
  });

  // RFC 9110 §10.2.3 (Retry-After): the wait is until a place can free. A place whose request
  // is still in flight (a minute on) can be given back at any moment (1 s); one held longer than
  // a request holds one (HELD_AT_MOST_MS, 2 minutes) was left by a stopped process or a refused
  // settle, and frees only as it leaves the window
  it('answers the wait until a place left behind leaves the window, not a one-second retry', () => {
    const { state } = held([0, 1, 2]);
    expect(reserve(window, state, MIN).verdict).to.deep.equal({
      allowed: false,
      retryAfterSeconds: 1,
    });
    expect(reserve(window, state, 10 * MIN).verdict).to.deep.equal({
      allowed: false,
      retryAfterSeconds: 50 * 60,
    });
  });

  it('answers a one-second retry when a place in flight would make room beside one left behind', () => {
    const { state } = held([0, 1]);
    const { state: later } = held([10 * MIN], state);
    expect(reserve(window, later, 10 * MIN + 1).verdict).to.deep.equal({
      allowed: false,
      retryAfterSeconds: 1,
    });
  });
});

describe('When tokens are held in a bucket before the events are known', () => {
  const bucket: TokenBucketPolicy = { kind: 'token-bucket', capacity: 2, refillEverySeconds: 60 };

  // RFC 9110 §10.2.3: Retry-After is when a retry can succeed. A token held for a request in
  // flight may be given back at any moment, so while it would be enough the wait is a second,
  // not the refill's minute; once it is kept, the refill's
  it('takes the tokens as it holds them, and while they are in flight refuses with a one-second retry', () => {
    const first = reserve(bucket, null, 0);
    const second = reserve(bucket, first.next, 0);
    expect([first.verdict.allowed, second.verdict.allowed]).to.deep.equal([true, true]);
    expect(reserve(bucket, second.next, 0).verdict).to.deep.equal({
      allowed: false,
      retryAfterSeconds: 1,
    });
    const kept = settle(bucket, second.next, 1_000, 0, true);
    const keptBoth = settle(bucket, kept.next, 1_000, 0, true);
    expect(reserve(bucket, keptBoth.next, 1_000).verdict).to.deep.equal({
      allowed: false,
      retryAfterSeconds: 59,
    });
  });

  it('answers the refill when the tokens in flight would not be enough', () => {
    const first = reserve(bucket, null, 0);
    const kept = settle(bucket, first.next, 0, 0, true);
    const second = reserve(bucket, kept.next, 0);
    // two asked, one in flight: even given back, the second comes with the refill after two minutes
    expect(reserve(bucket, second.next, 0, 2).verdict).to.deep.equal({
      allowed: false,
      retryAfterSeconds: 120,
    });
  });

  it('counts a token held past HELD_AT_MOST_MS as taken: the refill, not a one-second retry', () => {
    const first = reserve(bucket, null, 0);
    const second = reserve(bucket, first.next, 0);
    expect(reserve(bucket, second.next, 2 * 60_000).verdict).to.deep.equal({
      allowed: true,
      remaining: 1,
    });
    const slow: TokenBucketPolicy = { ...bucket, refillEverySeconds: 3600 };
    const a = reserve(slow, null, 0);
    const b = reserve(slow, a.next, 0);
    expect(reserve(slow, b.next, 2 * 60_000).verdict).to.deep.equal({
      allowed: false,
      retryAfterSeconds: 3600 - 120,
    });
    // and it is not put back by a settle that comes after
    expect(settle(slow, b.next, 2 * 60_000, 0, false).next).to.equal(null);
  });

  it('gives a token back when the event did not happen, never past the capacity', () => {
    const { next } = reserve(bucket, null, 0);
    const back = settle(bucket, next, 1_000, 0, false);
    expect(back.next?.tokens).to.equal(2);
    expect(back.next?.pending).to.equal(undefined);
    const kept = settle(bucket, next, 1_000, 0, true);
    expect(kept.next?.pending).to.equal(undefined);
    expect(kept.next?.tokens).to.be.closeTo(1 + 1 / 60, 1e-9);
    expect(reserve(bucket, next, 1_000).verdict).to.deep.equal({ allowed: true, remaining: 0 });
    expect(settle(bucket, kept.next, 2_000, 0, false).next).to.equal(null);
  });
});
