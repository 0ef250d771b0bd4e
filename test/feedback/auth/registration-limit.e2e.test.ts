/**
 * Spec: "a burst from one address gets HTTP 429 with a `retry-after` header" (its body: "not shown
 * for this response"). The registration endpoint is OAuth's (RFC 7591), and a client library
 * parses its refusals as OAuth errors (§3.2.2): `{error: <code>, error_description}`, here
 * `temporarily_unavailable` (registration-limit.ts says why). Issue 10 item 14: the window was
 * aligned to the clock, so up to twice the limit passed across a boundary: it slides.
 */
import { expect } from 'chai';
import * as oidc from 'openid-client';
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

  it('answers the 21st registration 429 with retry-after and the OAuth error temporarily_unavailable (openid-client)', async () => {
    for (let n = 0; n < 20; n++) expect((await register(n)).status).to.equal(201);
    const refusal = await oidc
      .dynamicClientRegistration(
        new URL(fb.url),
        { redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' },
        oidc.None(),
        { execute: [oidc.allowInsecureRequests] },
      )
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refusal).to.be.instanceOf(oidc.ResponseBodyError);
    const { status, error, error_description, response } = refusal as oidc.ResponseBodyError;
    expect(status).to.equal(429);
    expect(error).to.equal('temporarily_unavailable');
    expect(error_description).to.match(/too many client registrations/);
    expect(response.headers.get('cache-control')).to.equal('no-store');
    // README: "feedback 20 per 10 min": the wait is until the first of the 20, moments ago, is 10 minutes old
    expect(Number(response.headers.get('retry-after'))).to.be.within(560, 600);
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
