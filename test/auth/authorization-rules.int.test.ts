/**
 * The authorization-request and registration rules: PKCE required with S256 only, exact
 * redirect URIs, single-use codes, registration rate-limited per IP, and surviving a restart.
 */
import { signInAndExchange } from './support/flow.js';
import { expect } from 'chai';
import { feedbackAuthPreset } from '../../src/auth/index.js';
import { authorizeOverHttp, errorSentBack } from './support/browserless.js';
import { exchange, oidc, registerClient, startAuthorization } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';

const EMAIL = 'rules@example.com';

function authorizeUrl(h: Harness, clientId: string, params: Record<string, string>): string {
  const url = new URL(`${h.base}/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: `${h.base}/cb`,
    scope: 'openid',
    state: 'xyz',
    ...params,
  }).toString();
  return url.href;
}

const register = (h: Harness, forwardedFor?: string) =>
  fetch(`${h.base}/oauth/register`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
    body: JSON.stringify({
      client_name: 'Burst',
      redirect_uris: [`${h.base}/cb`],
      token_endpoint_auth_method: 'none',
    }),
  });

describe('When an authorization request breaks the rules', () => {
  let h: Harness;
  let clientId: string;
  before(async () => {
    h = await startHarness({
      ...feedbackAuthPreset,
      registrationLimit: { max: 3, windowSeconds: 600 },
      trustProxy: true,
    });
    clientId = (await registerClient(h.base)).clientMetadata().client_id;
  });
  after(async () => h.close());

  // spec: "PKCE | required; S256 is the only challenge method"
  it('rejects a request without a PKCE challenge', async () => {
    const res = await fetch(authorizeUrl(h, clientId, {}), { redirect: 'manual' });
    const location = await errorSentBack(res, h.base);
    expect(location.pathname).to.equal('/cb');
    expect(location.searchParams.get('error')).to.equal('invalid_request');
    expect(location.searchParams.get('error_description')).to.include('PKCE');
  });

  it('rejects the plain challenge method', async () => {
    const res = await fetch(
      authorizeUrl(h, clientId, { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }),
      {
        redirect: 'manual',
      },
    );
    const location = await errorSentBack(res, h.base);
    expect(location.searchParams.get('error')).to.equal('invalid_request');
    expect(location.searchParams.get('error_description')).to.include('code_challenge_method');
  });

  it('refuses a redirect URI that is not exactly the registered one, without redirecting', async () => {
    for (const redirect of [
      `${h.base}/cb/`,
      `${h.base}/cb?x=1`,
      `${h.base}/CB`,
      `${h.base}/cb/extra`,
    ]) {
      const res = await fetch(
        authorizeUrl(h, clientId, {
          redirect_uri: redirect,
          code_challenge: 'a'.repeat(43),
          code_challenge_method: 'S256',
        }),
        { redirect: 'manual' },
      );
      expect(res.status, redirect).to.equal(400);
      expect(await res.text()).to.include('redirect_uri');
    }
  });

  it('accepts an authorization code once and refuses it the second time', async () => {
    const config = await registerClient(h.base);
    const { pending, callback, tokens } = await signInAndExchange(h, config, {
      scope: 'openid',
      email: EMAIL,
    });
    expect(tokens.access_token).to.be.a('string');
    const again = await exchange(config, callback, pending).catch((e: unknown) => e);
    expect(again).to.be.instanceOf(oidc.ResponseBodyError);
    expect((again as oidc.ResponseBodyError).error).to.equal('invalid_grant');
  });

  it('refuses a code exchange with the wrong PKCE verifier', async () => {
    const config = await registerClient(h.base);
    const pending = await startAuthorization(config, h.base, 'openid');
    const callback = await authorizeOverHttp({
      authUrl: pending.url,
      base: h.base,
      email: EMAIL,
      mailboxPath: h.mailboxPath,
    });
    const wrong = await exchange(config, callback, {
      ...pending,
      verifier: oidc.randomPKCECodeVerifier(),
    }).catch((e: unknown) => e);
    expect((wrong as oidc.ResponseBodyError).error).to.equal('invalid_grant');
  });

  // spec: "Registration is rate-limited per IP address; a burst from one address gets HTTP 429 with a retry-after header."
  it('answers a registration burst from one IP with 429 and retry-after, while another IP still registers', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await register(h, '203.0.113.7')).status);
    expect(statuses).to.deep.equal([201, 201, 201, 429]);
    const limited = await register(h, '203.0.113.7');
    expect(limited.status).to.equal(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).to.be.greaterThan(0).and.at.most(600);
    expect((await register(h, '198.51.100.9')).status).to.equal(201);
  });

  // README (Security): "Client IP = ... with TRUST_PROXY=true the right-most X-Forwarded-For
  // entry": the proxy appends the address it saw; whatever stands before it the client wrote
  it('counts the right-most X-Forwarded-For entry, so entries a client puts before it do not escape the limit', async () => {
    const statuses: number[] = [];
    for (const forged of ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'])
      statuses.push((await register(h, `${forged}, 203.0.113.50`)).status);
    expect(statuses).to.deep.equal([201, 201, 201, 429]);
  });
});

describe('When trust-proxy is off', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({
      ...feedbackAuthPreset,
      registrationLimit: { max: 2, windowSeconds: 600 },
    });
  });
  after(async () => h.close());

  it('counts by the socket address, so a forged X-Forwarded-For does not escape the limit', async () => {
    const statuses: number[] = [];
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3'])
      statuses.push((await register(h, ip)).status);
    expect(statuses).to.deep.equal([201, 201, 429]);
  });
});

describe('When the service restarts between the code exchange and the refresh', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...feedbackAuthPreset });
  });
  after(async () => h.close());

  it('keeps the client, the grant, the signing keys and the refresh token', async () => {
    const config = await registerClient(h.base, { name: 'Survivor' });
    const { tokens } = await signInAndExchange(h, config, {
      scope: 'openid',
      email: EMAIL,
    });

    await h.restart();

    const before = await h.auth.verifyAccessToken(tokens.access_token);
    expect(before.clientName).to.equal('Survivor');
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.refresh_token).to.be.a('string').and.not.equal(tokens.refresh_token);
    await h.auth.verifyAccessToken(refreshed.access_token);

    await h.restart();
    // the rotation was durable too: the consumed token is still known as used
    const reuse = await oidc
      .refreshTokenGrant(config, tokens.refresh_token as string)
      .catch((e: unknown) => e);
    expect((reuse as oidc.ResponseBodyError).error).to.equal('invalid_grant');
  });
});
