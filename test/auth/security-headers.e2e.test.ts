/**
 * Issue 10 item 11: "HTML pages (sign-in, consent, errors, /docs, the dev mailbox) send no
 * security headers. Use helmet: a CSP with frame-ancestors 'none', X-Content-Type-Options,
 * Referrer-Policy; cookies Secure when the base URL is https."
 */
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { CookieJar, formIn, request } from './support/browserless.js';
import { registerClient, startAuthorization } from './support/client.js';
import { freePort } from '../support/ports.js';

function expectHardened(res: Response, page: string): void {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp, `${page}: CSP`).to.include("frame-ancestors 'none'");
  expect(csp, `${page}: CSP`).to.include("default-src 'self'");
  expect(res.headers.get('x-content-type-options'), page).to.equal('nosniff');
  expect(res.headers.get('referrer-policy'), page).to.equal('no-referrer');
}

describe('When a browser loads the HTML pages of the feedback service', () => {
  let fb: FeedbackHarness;
  before(async () => {
    fb = await startFeedback();
    await fb.createMaker('max@acme.io');
  });
  after(() => fb.stop());

  it('sends a CSP forbidding framing, nosniff and a referrer policy on every page', async () => {
    const config = await registerClient(fb.url);
    const pending = await startAuthorization(config, fb.url, 'openid');
    const jar = new CookieJar();
    const interaction = new URL(
      (await request(jar, pending.url)).headers.get('location') ?? '',
      fb.url,
    ).href;
    const signIn = await request(jar, interaction);
    expectHardened(signIn, 'sign-in');
    const emailForm = formIn(await signIn.text(), fb.url, '/email');
    await request(jar, emailForm.action, { ...emailForm.fields, email: 'max@acme.io' });
    const codePage = await request(jar, interaction);
    expectHardened(codePage, 'code form');
    // not a README line but context.ts's: a sign-in page names the address the code went to and
    // carries its form's CSRF token, so no cache (a shared computer's browser) may keep it
    expect(signIn.headers.get('cache-control'), 'sign-in').to.equal('no-store');
    expect(codePage.headers.get('cache-control'), 'code form').to.equal('no-store');
    const error = await fetch(`${fb.url}/oauth/interaction/no-such-sign-in`);
    expect(error.status).to.equal(400);
    expectHardened(error, 'error page');
    const providerError = await fetch(`${fb.url}/oauth/authorize?client_id=nobody`);
    expectHardened(providerError, 'authorization error page');
    expectHardened(await fetch(`${fb.url}/docs`), '/docs');
    expectHardened(await fetch(`${fb.url}/dev/mailbox`), 'dev mailbox');
  });

  it('answers operations with the API set: nothing may load or frame a JSON answer', async () => {
    for (const res of [
      await fetch(`${fb.url}/v1/me/tokens`),
      await fetch(`${fb.url}/v1/public/no-such/WEB/roadmap`),
    ]) {
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.headers.get('content-security-policy')).to.equal(
        "default-src 'none';frame-ancestors 'none'",
      );
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
      // the page set is for documents only: it would double a small answer on the wire
      expect(res.headers.get('x-dns-prefetch-control')).to.equal(null);
    }
  });
});

describe('When the service is published over https (behind a TLS proxy)', () => {
  let fb: FeedbackHarness;
  let local: string;
  const BASE = 'https://feedback.example.test';
  before(async () => {
    const port = await freePort();
    local = `http://127.0.0.1:${port}`;
    fb = await startFeedback({
      env: {
        FEEDBACK_BASE_URL: BASE,
        FEEDBACK_PORT: String(port),
        DEV_MODE: 'false',
        SMTP_URL: 'smtp://127.0.0.1:9',
      },
    });
  });
  after(() => fb.stop());

  it('marks its cookies Secure and sends HSTS', async () => {
    const registered = await fetch(`${local}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: ['https://app.example.test/cb'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const url = new URL('/oauth/authorize', local);
    url.search = new URLSearchParams({
      client_id,
      response_type: 'code',
      redirect_uri: 'https://app.example.test/cb',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      scope: 'openid',
    }).toString();
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).to.equal(303);
    const cookies = res.headers.getSetCookie();
    expect(cookies.length).to.be.greaterThan(0);
    for (const cookie of cookies) expect(cookie.toLowerCase(), cookie).to.include('; secure');
    expect(res.headers.get('strict-transport-security')).to.match(/max-age=\d+/);
  });
});
