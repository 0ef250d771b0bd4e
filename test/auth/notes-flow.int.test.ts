/**
 * Notes flavour: RFC 8414 discovery, the `notes` scope, a refresh token only with offline_access,
 * 30-day access / 90-day refresh lifetimes under a controllable clock, two hosts, 30 registrations
 * per IP per hour.
 */
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { notesAuthPreset, Unauthenticated } from '../../src/auth/index.js';
import { authorizeOverHttp } from './support/browserless.js';
import { exchange, oidc, registerClient, startAuthorization } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const EMAIL = 'writer@example.com';

describe('When a client connects to the notes service', () => {
  let h: Harness;
  const realNow = Date.now;
  let offsetMs = 0;
  before(async () => {
    // oidc-provider, jose and openid-client all read Date.now: shifting it moves every clock
    Date.now = () => realNow() + offsetMs;
    h = await startHarness({ ...notesAuthPreset, serviceName: 'Notes', withAltHost: true });
  });
  after(async () => {
    Date.now = realNow;
    await h.close();
  });
  afterEach(() => {
    offsetMs = 0;
  });

  async function connect(scope: string, base = h.base) {
    const config = await registerClient(base, { algorithm: 'oauth2', name: 'Notes CLI' });
    const pending = await startAuthorization(config, base, scope);
    const callback = await authorizeOverHttp({
      authUrl: pending.url,
      base,
      email: EMAIL,
      mailboxPath: h.mailboxPath,
    });
    return { config, tokens: await exchange(config, callback, pending) };
  }

  it('serves RFC 8414 discovery at /.well-known/oauth-authorization-server', async () => {
    // spec: "Discovery document: GET {base_url}/.well-known/oauth-authorization-server"
    const res = await fetch(`${h.base}/.well-known/oauth-authorization-server`);
    expect(res.status).to.equal(200);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc.issuer).to.equal(h.base);
    expect(doc.scopes_supported).to.include.members(['notes', 'offline_access']);
    expect((await fetch(`${h.base}/.well-known/openid-configuration`)).status).to.equal(404);
  });

  it('gives no refresh token without offline_access', async () => {
    // spec: "Scope for unattended use | offline_access (request it to obtain a refresh token)"
    const { tokens } = await connect('notes');
    expect(tokens.refresh_token).to.equal(undefined);
    expect((await h.auth.verifyAccessToken(tokens.access_token)).scopes).to.deep.equal(['notes']);
  });

  it('gives a 30-day access token and a 90-day refresh token with offline_access', async () => {
    // spec: "Access token lifetime | 30 days", "Refresh token lifetime | 90 days"
    const { config, tokens } = await connect('notes offline_access');
    expect(tokens.refresh_token).to.be.a('string');
    expect(tokens.expires_in).to.equal(30 * 24 * 60 * 60);
    const verified = await h.auth.verifyAccessToken(tokens.access_token);
    expect(verified.expiresAt.getTime() - realNow()).to.be.within(
      30 * DAY_MS - 60_000,
      30 * DAY_MS + 1000,
    );

    offsetMs = 30 * DAY_MS - 60_000;
    await h.auth.verifyAccessToken(tokens.access_token);
    offsetMs = 30 * DAY_MS + 60_000;
    const expired = await h.auth.verifyAccessToken(tokens.access_token).catch((e: unknown) => e);
    expect(expired).to.be.instanceOf(Unauthenticated);
    expect((expired as Unauthenticated).message).to.match(/expired/);

    offsetMs = 89 * DAY_MS;
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    await h.auth.verifyAccessToken(refreshed.access_token);

    // the rotated refresh token lives 90 days from its own issue: still good at day 89 + 89
    offsetMs = (89 + 89) * DAY_MS;
    const again = await oidc.refreshTokenGrant(config, refreshed.refresh_token as string);
    // and is dead 91 days after that
    offsetMs = (89 + 89 + 91) * DAY_MS;
    const dead = await oidc
      .refreshTokenGrant(config, again.refresh_token as string)
      .catch((e: unknown) => e);
    expect((dead as oidc.ResponseBodyError).error).to.equal('invalid_grant');
  });

  it('gives the notes scope to a request for offline_access alone', async () => {
    // spec: "offline_access" is the "scope for unattended use" and `notes` the one data scope; a
    // client asking only for unattended use must get a token that can read its notes
    const { tokens } = await connect('offline_access');
    expect(tokens.refresh_token).to.be.a('string');
    const verified = await h.auth.verifyAccessToken(tokens.access_token);
    expect(verified.scopes).to.include('notes');
  });

  it('refuses a refresh token that is older than 90 days', async () => {
    const { config, tokens } = await connect('notes offline_access');
    offsetMs = 91 * DAY_MS;
    const dead = await oidc
      .refreshTokenGrant(config, tokens.refresh_token as string)
      .catch((e: unknown) => e);
    expect((dead as oidc.ResponseBodyError).error).to.equal('invalid_grant');
  });

  it('stops an access token once its grant has expired', async () => {
    // README (Security, Registered clients): "its codes and access tokens are honoured only while
    // their grant lives"; a grant kept past its end (90 days) must not keep its tokens working
    const { tokens } = await connect('notes');
    const grantId = decodeJwt(tokens.access_token).grant_id;
    const grants = h.readStore().collection<{ _id: string }>('oauth_Grant');
    await grants.updateOne({ _id: grantId as string }, { $set: { expiresAt: Date.now() - 1000 } });
    const refused = await h.auth.verifyAccessToken(tokens.access_token).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(Unauthenticated);
  });

  it('accepts a token obtained through the second host on both hosts', async () => {
    // spec: "the same API is also served from a second host, {alt_base_url}, and either host works"
    const doc = (await (
      await fetch(`${h.altBase}/.well-known/oauth-authorization-server`)
    ).json()) as { issuer: string };
    expect(doc.issuer).to.equal(h.altBase);
    const { tokens } = await connect('notes', h.altBase);
    const verified = await h.auth.verifyAccessToken(tokens.access_token);
    expect(verified.userId).to.equal(h.accounts.byEmail.get(EMAIL));
  });

  it('revokes a refresh token at /oauth/revoke', async () => {
    const { config, tokens } = await connect('notes offline_access');
    await oidc.tokenRevocation(config, tokens.refresh_token as string);
    const refresh = await oidc
      .refreshTokenGrant(config, tokens.refresh_token as string)
      .catch((e: unknown) => e);
    expect((refresh as oidc.ResponseBodyError).error).to.equal('invalid_grant');
    expect(
      await h.auth.verifyAccessToken(tokens.access_token).catch((e: unknown) => e),
    ).to.be.instanceOf(Unauthenticated);
  });
});

describe('When one address registers clients for an hour', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...notesAuthPreset });
  });
  after(async () => h.close());

  it('refuses the 31st registration with 429', async () => {
    // issue 6: "POST /oauth/register (dynamic registration, 30 per IP per hour, then 429)"
    const body = JSON.stringify({
      client_name: 'x',
      redirect_uris: [`${h.base}/cb`],
      token_endpoint_auth_method: 'none',
    });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await fetch(`${h.base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      statuses.push(res.status);
      // "per hour": the wait is until the first of the 30, made moments ago, is an hour old
      if (res.status === 429)
        expect(Number(res.headers.get('retry-after'))).to.be.within(3560, 3600);
    }
    expect(statuses.slice(0, 30).every((s) => s === 201)).to.equal(true);
    expect(statuses[30]).to.equal(429);
  });
});
