/**
 * "Sign in with <upstream IdP>" against a real OpenID provider: a second node-oidc-provider on
 * 127.0.0.1 plays the upstream (its development login and consent pages stand in for the
 * user's account there). The browser's part is driven over HTTP with one cookie jar per origin;
 * openid-client is the client of our service.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';
import { feedbackAuthPreset } from '../../src/auth/index.js';
import { CookieJar, formIn, request } from './support/browserless.js';
import { exchange, registerClient, startAuthorization } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';

/** The upstream's users: `login` on its dev login page is the account id. */
const UPSTREAM_USERS: Record<string, { email: string; email_verified: boolean; name: string }> = {
  ada: { email: 'Ada@Upstream.test', email_verified: true, name: 'Ada Lovelace' },
  eve: { email: 'eve@upstream.test', email_verified: false, name: 'Eve' },
};

interface Upstream {
  base: string;
  provide(redirectUri: string): Promise<void>;
  close(): Promise<void>;
}

/** Listens first (the issuer URL needs the port), serves once `provide` knows our callback. */
async function startUpstream(): Promise<Upstream> {
  let handler: http.RequestListener | undefined;
  const server = http.createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    async provide(redirectUri) {
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      const configuration: Configuration = {
        clients: [
          {
            client_id: 'feedback-board',
            client_secret: 'upstream-secret',
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            id_token_signed_response_alg: 'ES256',
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        async findAccount(_ctx, sub) {
          const user = UPSTREAM_USERS[sub];
          if (!user) return undefined;
          return { accountId: sub, claims: async () => ({ sub, ...user }) };
        },
        cookies: { keys: ['upstream-test-key'] },
        jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'ES256', use: 'sig' }] },
        ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
      };
      // Its in-memory storage and development pages are the point here; keep their warnings out.
      const { warn } = console;
      console.warn = () => {};
      try {
        handler = new Provider(base, configuration).callback();
      } finally {
        console.warn = warn;
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A browser in miniature: follows redirects across origins, one cookie jar per origin. */
class Browser {
  private readonly jars = new Map<string, CookieJar>();
  async go(url: string, form?: Record<string, string>): Promise<Response> {
    const origin = new URL(url).origin;
    let jar = this.jars.get(origin);
    if (!jar) {
      jar = new CookieJar();
      this.jars.set(origin, jar);
    }
    return request(jar, url, form);
  }
  /** follows redirects until a page, or until the redirect to the client's `/cb` */
  async follow(res: Response, from: string): Promise<{ res: Response; url: string }> {
    let current = res;
    let url = from;
    for (let hops = 0; hops < 12 && current.status >= 300 && current.status < 400; hops++) {
      url = new URL(current.headers.get('location') ?? '', url).href;
      if (new URL(url).pathname === '/cb') return { res: current, url };
      current = await this.go(url);
    }
    return { res: current, url };
  }
}

/** the upstream dev pages' single form: its absolute action */
function upstreamAction(html: string, pageUrl: string): string {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form on the upstream page:\n${html}`);
  return new URL(action.replaceAll('&amp;', '&'), pageUrl).href;
}

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

  it('answers a callback with an unknown state with the expired-sign-in page', async () => {
    const res = await fetch(`${h.base}/oauth/upstream/callback?code=x&state=forged`, {
      redirect: 'manual',
    });
    expect(res.status).to.equal(400);
    expect(await res.text()).to.include('This sign-in has expired');
  });
});
