/**
 * "Sign in with <upstream IdP>" against a real OpenID provider: a second node-oidc-provider on
 * 127.0.0.1 plays the upstream (its development login and consent pages stand in for the
 * user's account there). The browser's part is driven over HTTP with one cookie jar per origin;
 * openid-client is the client of our service.
 */
import { expect } from 'chai';
import { feedbackAuthPreset } from '../../src/auth/index.js';
import { ReadStoreUnavailableError } from '../../src/readstore/types.js';
import { formIn } from './support/browserless.js';
import { exchange, registerClient, startAuthorization } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';
import { Browser, startUpstream, type Upstream, upstreamAction } from './support/upstream.js';

describe('When a maker signs in with the upstream identity provider', () => {
  let upstream: Upstream;
  let h: Harness;
  /** how far our service's clock runs ahead of the upstream's */
  let offset = 0;

  before(async () => {
    upstream = await startUpstream();
    h = await startHarness({
      ...feedbackAuthPreset,
      serviceName: 'Feedback',
      now: () => Date.now() + offset,
      upstream: {
        name: 'Upstream Co',
        issuer: upstream.base,
        clientId: 'feedback-board',
        clientSecret: 'upstream-secret',
        allowInsecure: true,
      },
    });
    await upstream.provide(`${h.base}/oauth/upstream/callback`);
  });
  after(async () => {
    await h.close();
    await upstream.close();
  });

  /**
   * From our authorization URL through the upstream and back: returns the last page (or the
   * redirect to the client) and everything the flow passed.
   */
  async function signInUpstream(
    login: string,
    authUrl: string,
    stop: (url: URL) => boolean = () => false,
  ) {
    const browser = new Browser();
    let { res, url } = await browser.follow(await browser.go(authUrl), authUrl);
    const html = await res.text();
    expect(html, 'our sign-in page offers the upstream').to.include('Sign in with Upstream Co');
    const button = formIn(html, h.base, '/upstream');
    ({ res, url } = await browser.follow(await browser.go(button.action, button.fields), url));
    expect(new URL(url).origin, 'the button leads to the upstream').to.equal(upstream.base);
    for (let step = 0; step < 4 && new URL(url).origin === upstream.base; step++) {
      const page = await res.text();
      const action = upstreamAction(page, url);
      const form: Record<string, string> = page.includes('name="login"')
        ? { prompt: 'login', login, password: 'any' }
        : { prompt: 'consent' };
      ({ res, url } = await browser.follow(await browser.go(action, form), url, stop));
    }
    return { browser, res, url };
  }

  it('signs in as the maker account with the upstream e-mail, then finishes the OAuth flow', async () => {
    const config = await registerClient(h.base, { name: 'Upstream Test Client' });
    const pending = await startAuthorization(config, h.base, 'openid email');
    let { browser, res, url } = await signInUpstream('ada', pending.url);
    // back at our service, signed in: our own consent page for the (third-party) client
    const html = await res.text();
    expect(res.status, html.slice(0, 400)).to.equal(200);
    const confirm = formIn(html, h.base, '/confirm');
    ({ res, url } = await browser.follow(await browser.go(confirm.action, confirm.fields), url));
    expect(new URL(url).pathname).to.equal('/cb');
    const tokens = await exchange(config, new URL(url), pending);
    // the account is the one for the upstream's e-mail, lower-cased
    const accountId = h.accounts.byEmail.get('ada@upstream.test');
    expect(accountId, 'an account was made for the upstream e-mail').to.be.a('string');
    expect(tokens.claims()?.sub).to.equal(accountId);
    expect((await h.auth.verifyAccessToken(tokens.access_token)).userId).to.equal(accountId);
  });

  it('refuses an upstream account whose e-mail is not verified, and makes no account', async () => {
    const config = await registerClient(h.base);
    const pending = await startAuthorization(config, h.base, 'openid email');
    const { res, url } = await signInUpstream('eve', pending.url);
    expect(new URL(url).pathname).to.not.equal('/cb');
    expect(res.status).to.equal(502);
    expect(await res.text()).to.include('did not share a verified e-mail address');
    expect(h.accounts.byEmail.has('eve@upstream.test')).to.equal(false);
  });

  it('refuses an upstream account that does not say its e-mail is verified (no email_verified claim)', async () => {
    // config (UPSTREAM_ISSUER): "it must share a verified e-mail (email_verified true)"; OpenID
    // Connect Core §5.1: email_verified is "true if the End-User's e-mail address has been
    // verified" — an address the provider does not vouch for is not one
    const config = await registerClient(h.base);
    const pending = await startAuthorization(config, h.base, 'openid email');
    const { res, url } = await signInUpstream('mal', pending.url);
    expect(new URL(url).pathname).to.not.equal('/cb');
    expect(res.status).to.equal(502);
    expect(await res.text()).to.include('did not share a verified e-mail address');
    expect(h.accounts.byEmail.has('mal@upstream.test')).to.equal(false);
  });

  it("does not finish another browser's sign-in with the upstream's answer to this one (login CSRF)", async () => {
    // RFC 6749 §10.12: the client must bind the callback "to the user-agent's authenticated
    // state"; the upstream state names the interaction that started it, and only that one
    const config = await registerClient(h.base);
    const attacker = await startAuthorization(config, h.base, 'openid email');
    const callback = (url: URL) => url.pathname === '/oauth/upstream/callback';
    const { url: answer } = await signInUpstream('ada', attacker.url, callback);
    expect(new URL(answer).pathname, 'the upstream answered our callback').to.equal(
      '/oauth/upstream/callback',
    );
    // the victim's own sign-in page, then the attacker's code and state under the victim's uid
    const victim = new Browser();
    const started = await startAuthorization(config, h.base, 'openid email');
    const { url: page } = await victim.follow(await victim.go(started.url), started.url);
    const uid = new URL(page).pathname.split('/')[3];
    const planted = `${h.base}/oauth/interaction/${uid}/upstream-done${new URL(answer).search}`;
    const res = await victim.go(planted);
    expect(res.status, res.headers.get('location') ?? '').to.equal(502);
    expect(await res.text()).to.include('The sign-in took too long');
  });

  it('refuses an upstream answer that comes back after the sign-in state expired (10 minutes)', async () => {
    // src/auth/upstream-client.ts: "state and nonce kept in the store for ten minutes"; the
    // answer is taken only while its state lives, whichever URL it comes back to
    const config = await registerClient(h.base);
    const pending = await startAuthorization(config, h.base, 'openid email');
    const callback = (url: URL) => url.pathname === '/oauth/upstream/callback';
    const { browser, url: answer } = await signInUpstream('ada', pending.url, callback);
    const upstreamDone = await browser.follow(await browser.go(answer), answer, (url) =>
      url.pathname.endsWith('/upstream-done'),
    );
    offset = 10 * 60_000 + 1000;
    try {
      const res = await browser.go(upstreamDone.url);
      expect(res.status, res.headers.get('location') ?? '').to.equal(502);
      expect(await res.text()).to.include('The sign-in took too long');
    } finally {
      offset = 0;
    }
  });

  it('refuses an ID token the upstream dated ahead of our clock by more than the tolerance (30 s)', async () => {
    // OIDC Core §3.1.3.7: "The iat Claim can be used to reject tokens that were issued too far
    // away from the current time"; refused like one without exp, with exp's and nbf's tolerance
    const config = await registerClient(h.base);
    const pending = await startAuthorization(config, h.base, 'openid email');
    offset = -60_000;
    try {
      const { res, url } = await signInUpstream('ada', pending.url);
      expect(new URL(url).pathname).to.not.equal('/cb');
      expect(res.status).to.equal(502);
      expect(await res.text()).to.include('was not accepted');
    } finally {
      offset = 0;
    }
  });

  it('answers 503 with Retry-After when the store cannot keep the account, not "not accepted"', async () => {
    // README (Security): "every OAuth endpoint answers a store that cannot serve with 503,
    // Retry-After and temporarily_unavailable" — the identity provider's answer was fine
    const keep = h.accounts.findOrCreateByEmail;
    h.accounts.findOrCreateByEmail = () =>
      Promise.reject(new ReadStoreUnavailableError('accounts cannot be written'));
    try {
      const config = await registerClient(h.base);
      const pending = await startAuthorization(config, h.base, 'openid email');
      const { res } = await signInUpstream('ada', pending.url);
      const html = await res.text();
      expect(res.status, html.slice(0, 300)).to.equal(503);
      expect(res.headers.get('retry-after')).to.match(/^\d+$/);
      expect(html).to.include('temporarily_unavailable');
    } finally {
      h.accounts.findOrCreateByEmail = keep;
    }
  });

  it('answers a callback with an unknown state with the expired-sign-in page', async () => {
    const res = await fetch(`${h.base}/oauth/upstream/callback?code=x&state=forged`, {
      redirect: 'manual',
    });
    expect(res.status).to.equal(400);
    expect(await res.text()).to.include('This sign-in has expired');
  });
});
