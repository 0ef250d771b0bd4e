/**
 * The counting rules of src/limits as pure functions. Issue 10 item 14: "Its window is aligned
 * to the clock, so up to twice the limit passes across a boundary: use a sliding window or token
 * bucket." Item 1: "then a lockout that grows".
 */
import { expect } from 'chai';
import type { LimitState, Verdict } from '../../src/limits/limit-state.js';
import { type Policy, step } from '../../src/limits/policies.js';

const MIN = 60_000;

/** runs takes at the given times against one key, returning the verdicts */
function takes(policy: Policy, times: number[]): Verdict[] {
  let state: LimitState | null = null;
  return times.map((at) => {
    const { next, verdict } = step(policy, state, at, true);
    if (next) state = next;
    return verdict;
  });
}

describe('When events are counted in a sliding window', () => {
  const policy: Policy = { kind: 'sliding-window', max: 5, windowSeconds: 15 * 60 };

  it('never lets more than max through in any window, also across a clock boundary', () => {
    // five just before a quarter-hour boundary, five just after: a fixed window passes all ten
    const boundary = 15 * MIN * 1000;
    const times = [
      ...[5, 4, 3, 2, 1].map((s) => boundary - s * 1000),
      ...[1, 2, 3, 4, 5].map((s) => boundary + s * 1000),
    ];
    const allowed = takes(policy, times).filter((v) => v.allowed);
    expect(allowed).to.have.length(5);
  });

  it('tells how long until the oldest counted event leaves the window', () => {
    const verdicts = takes(policy, [0, MIN, 2 * MIN, 3 * MIN, 4 * MIN, 5 * MIN]);
    expect(verdicts[4]).to.deep.equal({ allowed: true, remaining: 0 });
    expect(verdicts[5]).to.deep.equal({ allowed: false, retryAfterSeconds: 10 * 60 });
  });

  it('allows again once the oldest event has left the window', () => {
    const verdicts = takes(policy, [0, 1, 2, 3, 4, 15 * MIN + 1]);
    expect(verdicts[5]?.allowed).to.equal(true);
  });

  it('peeks without counting', () => {
    const first = step(policy, null, 0, false);
    expect(first).to.deep.equal({ next: null, verdict: { allowed: true, remaining: 5 } });
  });

  it('counts an event for exactly windowSeconds: "at most max events in ANY windowSeconds span"', () => {
    const window = 15 * MIN;
    const verdicts = takes(policy, [0, 0, 0, 0, 0, window - 1, window]);
    expect(verdicts[5]).to.deep.equal({ allowed: false, retryAfterSeconds: 1 });
    expect(verdicts[6]?.allowed).to.equal(true);
  });

  it('keeps its state until it equals a fresh one: until the last event leaves the window', () => {
    const { next } = step(policy, null, 7 * MIN, true);
    expect(next?.expiresAt).to.equal(7 * MIN + 15 * MIN);
  });
});

describe('When a window with a lockout fills up', () => {
  const policy: Policy = {
    kind: 'sliding-window',
    max: 10,
    windowSeconds: 60 * 60,
    lockout: {
      baseSeconds: 15 * 60,
      factor: 2,
      maxSeconds: 24 * 60 * 60,
      forgetAfterSeconds: 24 * 60 * 60,
    },
  };

  function fill(state: LimitState | null, at: number): { state: LimitState; last: Verdict } {
    let current = state;
    let last: Verdict = { allowed: true, remaining: 10 };
    for (let i = 0; i < 10; i++) {
      const { next, verdict } = step(policy, current, at + i, true);
      current = next ?? current;
      last = verdict;
    }
    return { state: current as LimitState, last };
  }

  it('locks the key for 15 minutes, then 30, then 60: the lockout grows', () => {
    let at = 0;
    const lockouts: number[] = [];
    let state: LimitState | null = null;
    for (let round = 0; round < 3; round++) {
      ({ state } = fill(state, at));
      const refused = step(policy, state, at + 100, true).verdict;
      expect(refused.allowed).to.equal(false);
      const wait = (refused as { retryAfterSeconds: number }).retryAfterSeconds;
      lockouts.push(Math.round(wait / 60));
      at += wait * 1000 + 1000;
    }
    expect(lockouts).to.deep.equal([15, 30, 60]);
  });

  it('refuses a peek during the lockout too (a right code during a lockout is refused)', () => {
    const { state, last } = fill(null, 0);
    expect(last).to.deep.equal({ allowed: true, remaining: 0 });
    expect(step(policy, state, 60_000, false).verdict.allowed).to.equal(false);
  });

  it('starts over at the base lockout after a quiet day', () => {
    let { state } = fill(null, 0);
    ({ state } = fill(state, 16 * MIN));
    const later = 16 * MIN + 30 * MIN + 25 * 60 * MIN;
    ({ state } = fill(state, later));
    const wait = (step(policy, state, later + 100, true).verdict as { retryAfterSeconds: number })
      .retryAfterSeconds;
    expect(Math.round(wait / 60)).to.equal(15);
  });

  // README: "15 min, doubling with each repeat (30, 60 … ) up to 24 h; forgotten after 24 h
  // without one" — counted from the end of the last lockout, to the millisecond
  it('remembers the last lockout for 24 hours after it ended, and forgets it at 24 hours', () => {
    const DAY = 24 * 60 * MIN;
    const { state } = fill(null, 0);
    const ended = state.lockedUntil as number;
    expect(ended).to.equal(15 * MIN + 9);
    // the lockout that the tenth wrong code (at `at`) starts
    const lockoutAt = (at: number) => {
      const { state: again } = fill(state, at - 9);
      return (again.lockedUntil as number) - at;
    };
    expect(lockoutAt(ended + DAY - 1)).to.equal(30 * MIN);
    expect(lockoutAt(ended + DAY)).to.equal(15 * MIN);
  });

  it("keeps a locked key's state until its lockout is forgotten, not only until the window empties", () => {
    const { state } = fill(null, 0);
    expect(state.expiresAt).to.equal((state.lockedUntil as number) + 24 * 60 * MIN);
  });
});

describe('When events draw from a token bucket', () => {
  const policy: Policy = { kind: 'token-bucket', capacity: 3, refillEverySeconds: 60 };

  it('allows a burst up to the capacity, then one per refill period', () => {
    const verdicts = takes(policy, [0, 0, 0, 0, 30_000, 60_000, 61_000]);
    expect(verdicts.map((v) => v.allowed)).to.deep.equal([
      true,
      true,
      true,
      false,
      false,
      true,
      false,
    ]);
    expect(verdicts[3]).to.deep.equal({ allowed: false, retryAfterSeconds: 60 });
    expect(verdicts[4]).to.deep.equal({ allowed: false, retryAfterSeconds: 30 });
  });

  it('adds a token exactly every refillEverySeconds, not a millisecond sooner', () => {
    const verdicts = takes(policy, [0, 0, 0, MIN - 1, MIN]);
    expect(verdicts[3]).to.deep.equal({ allowed: false, retryAfterSeconds: 1 });
    expect(verdicts[4]).to.deep.equal({ allowed: true, remaining: 0 });
  });

  it('peeks without spending a token (a submission peeks every bucket before it takes from any)', () => {
    let state: LimitState | null = null;
    for (const consume of [false, false, true, false]) {
      const { next } = step(policy, state, 0, consume);
      if (next) state = next;
    }
    expect(step(policy, state, 0, false).verdict).to.deep.equal({ allowed: true, remaining: 2 });
  });

  it('keeps its state until the bucket is full again', () => {
    const { next } = step(policy, null, 5_000, true);
    const { next: after } = step(policy, next, 5_000, true);
    expect(after?.expiresAt).to.equal(5_000 + 2 * MIN);
  });
});

/**
 * A clock set back (NTP stepping it, an operator's fix) must not lengthen a limit by the step
 * (failure audit F7): times stored before the step count as "now", so a window, a lockout or a
 * refill lasts at most its own length from the moment the clock went back.
 */
describe('When the clock is set back an hour', () => {
  const HOUR = 60 * MIN;
  const at = 10 * HOUR;

  it('a full window frees up within its own length, not its length plus the hour', () => {
    const policy: Policy = { kind: 'sliding-window', max: 5, windowSeconds: 15 * 60 };
    const back = at - HOUR;
    const verdicts = takes(policy, [at, at, at, at, at, back, back + 15 * MIN + 1]);
    expect(verdicts[5]).to.deep.equal({ allowed: false, retryAfterSeconds: 15 * 60 });
    expect(verdicts[6]?.allowed).to.equal(true);
  });

  it('a lockout ends within its own length', () => {
    const policy: Policy = {
      kind: 'sliding-window',
      max: 3,
      windowSeconds: 60 * 60,
      lockout: { baseSeconds: 15 * 60, factor: 2, maxSeconds: 86_400, forgetAfterSeconds: 86_400 },
    };
    const back = at - HOUR;
    const verdicts = takes(policy, [at, at, at, back, back + 15 * MIN + 1]);
    expect(verdicts[3]).to.deep.equal({ allowed: false, retryAfterSeconds: 15 * 60 });
    expect(verdicts[4]?.allowed).to.equal(true);
  });

  it('a drained bucket refills from the step back on', () => {
    const policy: Policy = { kind: 'token-bucket', capacity: 2, refillEverySeconds: 60 };
    const back = at - HOUR;
    const verdicts = takes(policy, [at, at, back, back + MIN]);
    expect(verdicts.map((v) => v.allowed)).to.deep.equal([true, true, false, true]);
  });

  it('keeps each state only until it equals a fresh one, counted from the step back', () => {
    const back = at - HOUR;
    const bucket: Policy = { kind: 'token-bucket', capacity: 2, refillEverySeconds: 60 };
    const spent = step(bucket, step(bucket, null, at, true).next, at, true).next;
    expect(step(bucket, spent, back, false).next?.expiresAt).to.equal(back + 2 * MIN);
    const window: Policy = { kind: 'sliding-window', max: 5, windowSeconds: 15 * 60 };
    const counted = step(window, null, at, true).next;
    expect(step(window, counted, back, false).next?.expiresAt).to.equal(back + 15 * MIN);
    const lockout: Policy = {
      kind: 'sliding-window',
      max: 1,
      windowSeconds: 60 * 60,
      lockout: { baseSeconds: 15 * 60, factor: 2, maxSeconds: 86_400, forgetAfterSeconds: 86_400 },
    };
    const locked = step(lockout, null, at, true).next;
    const reclocked = step(lockout, locked, back, false).next;
    expect(reclocked?.lockedUntil).to.equal(back + 15 * MIN);
    expect(reclocked?.expiresAt).to.equal(back + 15 * MIN + 24 * HOUR);
  });
});
