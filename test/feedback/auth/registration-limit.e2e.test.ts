/**
 * Issue 10 item 14: "The feedback registration limit answers 429 with
 * {"error":"too_many_requests","error_description":…}. The spec: 'Every 4xx and 5xx answer has
 * one envelope: {error, code}' — use it (resource-exhausted), keep retry-after. Its window is
 * aligned to the clock, so up to twice the limit passes across a boundary: use a sliding window
 * or token bucket."
 */
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../support/harness.js';

const WINDOW_MS = 10 * 60_000;

describe('When one address registers OAuth clients in a burst (e2e)', () => {
  let fb: FeedbackHarness;
  before(async () => {
    fb = await startFeedback();
  });
  after(() => fb.stop());

  const register = (n: number) =>
    fetch(`${fb.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: `Burst ${n}`,
        redirect_uris: ['http://127.0.0.1:9/cb'],
        token_endpoint_auth_method: 'none',
      }),
    });

  it('answers the 21st registration 429 in the {error, code: resource-exhausted} envelope with retry-after', async () => {
    for (let n = 0; n < 20; n++) expect((await register(n)).status).to.equal(201);
    const refused = await register(20);
    expect(refused.status).to.equal(429);
    const body = (await refused.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).to.deep.equal(['code', 'error']);
    expect(body.code).to.equal('resource-exhausted');
    expect(body.error)
      .to.be.a('string')
      .and.match(/too many client registrations/);
    // README: "feedback 20 per 10 min": the wait is until the first of the 20, moments ago, is 10 minutes old
    expect(Number(refused.headers.get('retry-after'))).to.be.within(560, 600);
  });

  it('still refuses just after a clock-aligned window boundary: the window slides', async () => {
    const now = fb.clock.now();
    const boundary = Math.ceil(now / WINDOW_MS) * WINDOW_MS;
    fb.clock.advance(boundary - now + 1000);
    expect((await register(99)).status).to.equal(429);
    fb.clock.advance(WINDOW_MS);
    expect((await register(100)).status).to.equal(201);
  });
});
