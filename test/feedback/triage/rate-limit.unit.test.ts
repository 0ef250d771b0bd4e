import { expect } from 'chai';
import { createFixedWindowLimiter } from '../../../src/feedback/http/triage/rate-limit.js';

describe('When a fixed-window limiter counts hits', () => {
  let now = 1_000_000;
  const limiter = () => createFixedWindowLimiter({ limit: 3, windowMs: 10_000 }, () => now);

  it('allows `limit` hits per key and window, then says how long to wait', () => {
    // spec: registration bursts get "HTTP 429 with a retry-after header"; submit_feedback uses
    // the same kind of handling
    const l = limiter();
    for (let i = 0; i < 3; i++) expect(l.take('a')).to.deep.equal({ allowed: true });
    now += 2_500;
    expect(l.take('a')).to.deep.equal({ allowed: false, retryAfterSeconds: 8 });
    expect(l.take('b')).to.deep.equal({ allowed: true });
  });

  it('starts a fresh window once the old one has passed', () => {
    const l = limiter();
    for (let i = 0; i < 3; i++) l.take('a');
    now += 9_999;
    expect(l.take('a').allowed).to.equal(false);
    now += 1;
    expect(l.take('a').allowed).to.equal(true);
  });

  it('never answers a retry-after below one second', () => {
    const l = limiter();
    for (let i = 0; i < 3; i++) l.take('a');
    now += 9_900;
    expect(l.take('a')).to.deep.equal({ allowed: false, retryAfterSeconds: 1 });
  });
});
