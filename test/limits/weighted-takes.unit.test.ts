/**
 * A take of several events at once (src/limits/policies.ts `step` with `count`): recover_webhook
 * counts every delivery it queues again, not one per call (README, Webhooks: "`recover_webhook`
 * counts every delivery it queues again").
 */
import { expect } from 'chai';
import type { LimitState } from '../../src/limits/limit-state.js';
import { type Policy, step } from '../../src/limits/policies.js';

const MIN = 60_000;
const window: Policy = { kind: 'sliding-window', max: 5, windowSeconds: 60 };

describe('When a take counts several events of a sliding window', () => {
  it('fits only while that many places are free, and each of them counts', () => {
    const three = step(window, null, 0, true, 3);
    expect(three.verdict).to.deep.equal({ allowed: true, remaining: 2 });
    const state = three.next as LimitState;
    expect(step(window, state, 1000, false).verdict).to.deep.equal({ allowed: true, remaining: 2 });
    expect(step(window, state, 1000, true, 3).verdict.allowed, 'three more').to.equal(false);
    expect(step(window, state, 1000, true, 2).verdict).to.deep.equal({
      allowed: true,
      remaining: 0,
    });
  });

  it('waits until enough counted events have left the window', () => {
    let state = step(window, null, 0, true, 2).next as LimitState;
    state = step(window, state, 20_000, true, 3).next as LimitState;
    // four more need the two of 0 s and two of the three of 20 s gone: 20 s + a minute from 0
    expect(step(window, state, 30_000, true, 4).verdict).to.deep.equal({
      allowed: false,
      retryAfterSeconds: 50,
    });
    expect(
      step(window, state, MIN, true, 2).verdict.allowed,
      'two, once the first two left',
    ).to.equal(true);
  });

  it('never allows more at once than the window holds', () => {
    expect(step(window, null, 0, true, 6).verdict.allowed).to.equal(false);
  });
});
