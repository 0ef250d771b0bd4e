/**
 * src/platform/readiness.ts: "/readyz: 503 while degraded (readiness)". A projector that is
 * behind but moving is ready; one behind that has not moved for longer than writes wait for
 * their read models (PROJECTION_WAIT_MS) is not; nor is a store that refused the last append.
 */
import { expect } from 'chai';
import { APPEND_FAILURE_HOLD_MS, createReadiness } from '../../src/platform/readiness.js';
import { steppableWallClock } from '../support/wall-clock.js';

const status = (checkpoint: string, lag: string) => ({
  head: '100',
  projectors: [{ name: 'items', checkpoint, lag }],
});

describe('Readiness', () => {
  it('counts a projector behind the log as stalled only once it has not moved for stallMs', () => {
    let now = 0;
    const readiness = createReadiness({ stallMs: 10_000, now: () => now });
    expect(readiness.reasons(status('90', '10'))).to.deep.equal([]);
    now = 8_000;
    expect(readiness.reasons(status('95', '5')), 'it moved').to.deep.equal([]);
    now = 17_000;
    expect(readiness.reasons(status('95', '5')), '9 s still').to.deep.equal([]);
    now = 18_500;
    expect(readiness.reasons(status('95', '5'))).to.deep.equal([
      'projector items has not moved for 11 s, 5 events behind',
    ]);
    now = 19_000;
    expect(readiness.reasons(status('100', '0')), 'caught up').to.deep.equal([]);
    now = 40_000;
    expect(readiness.reasons(status('100', '0')), 'idle at the head').to.deep.equal([]);
  });

  it('is not ready from a refused append until an append goes through', () => {
    const readiness = createReadiness({ stallMs: 10_000 });
    readiness.appendFailed(new Error('commit failed (database or disk is full)'));
    expect(readiness.reasons(status('100', '0'))).to.deep.equal([
      'the event store refused the last append: commit failed (database or disk is full)',
    ]);
    readiness.appended();
    expect(readiness.reasons(status('100', '0'))).to.deep.equal([]);
  });

  it('lets traffic in again 30 s after a refused append with none since, to prove the store back', () => {
    // observability audit: out of rotation, the process got no write to clear the reason, so
    // `/readyz` stayed 503 after the disk was freed; a write that fails again marks it anew
    let now = 0;
    const readiness = createReadiness({ stallMs: 10_000, now: () => now });
    readiness.appendFailed(new Error('disk is full'));
    now = APPEND_FAILURE_HOLD_MS - 1;
    expect(readiness.reasons(status('100', '0'))).to.have.length(1);
    now = APPEND_FAILURE_HOLD_MS;
    expect(readiness.reasons(status('100', '0'))).to.deep.equal([]);
    readiness.appendFailed(new Error('disk is full'));
    expect(readiness.reasons(status('100', '0'))).to.have.length(1);
  });

  it('holds a refused append on the monotonic clock: a step of the wall clock does not end the hold early', () => {
    const clock = steppableWallClock();
    try {
      const readiness = createReadiness({ stallMs: 10_000 });
      readiness.appendFailed(new Error('disk is full'));
      clock.step(APPEND_FAILURE_HOLD_MS + 1_000);
      expect(readiness.reasons(status('100', '0'))).to.have.length(1);
    } finally {
      clock.restore();
    }
  });
});
