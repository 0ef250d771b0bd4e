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

  before(async () => {
    upstream = await startUpstream();
    h = await startHarness({
      ...feedbackAuthPreset,
      serviceName: 'Feedback',
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
  async function signInUpstream(login: string, authUrl: string) {
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
      ({ res, url } = await browser.follow(await browser.go(action, form), url));
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
