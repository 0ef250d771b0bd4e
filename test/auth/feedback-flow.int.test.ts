/**
 * Feedback flavour end to end with openid-client: register → authorize (sign-in form over HTTP,
 * code from the dev mailbox) → code exchange with PKCE → verifyAccessToken → refresh rotates →
 * reuse of the old refresh token rejected and the grant revoked.
 */
import { signInAndExchange } from './support/flow.js';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { feedbackAuthPreset, Unauthenticated } from '../../src/auth/index.js';
import { authorizeOverHttp } from './support/browserless.js';
import { oidc, registerClient, startAuthorization } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';

const EMAIL = 'maker@example.com';
const DAY_MS = 24 * 60 * 60 * 1000;

describe('When a client connects to the feedback service over OAuth', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...feedbackAuthPreset, serviceName: 'Feedback' });
  });
  after(async () => h.close());

  it('serves OIDC discovery with the renamed endpoints, S256 only and public clients', async () => {
    // spec: "Discovery | GET {base_url}/.well-known/openid-configuration"; "PKCE | required; S256 is the only challenge method"
    const res = await fetch(`${h.base}/.well-known/openid-configuration`);
    expect(res.status).to.equal(200);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc.issuer).to.equal(h.base);
    expect(doc.authorization_endpoint).to.equal(`${h.base}/oauth/authorize`);
    expect(doc.token_endpoint).to.equal(`${h.base}/oauth/token`);
    expect(doc.registration_endpoint).to.equal(`${h.base}/oauth/register`);
    expect(doc.revocation_endpoint).to.equal(`${h.base}/oauth/revoke`);
    expect(doc.code_challenge_methods_supported).to.deep.equal(['S256']);
    expect(doc.token_endpoint_auth_methods_supported).to.deep.equal(['none']);
    expect(doc.grant_types_supported).to.have.members(['authorization_code', 'refresh_token']);
  });

  it('issues a verifiable access token and an always-issued refresh token that rotates; reuse revokes the grant', async () => {
    const config = await registerClient(h.base, { name: 'Claude Desktop' });
    const { tokens } = await signInAndExchange(h, config, {
      scope: 'openid email',
      email: EMAIL,
    });

    const verified = await h.auth.verifyAccessToken(tokens.access_token);
    expect(verified.userId).to.equal(h.accounts.byEmail.get(EMAIL));
    expect(verified.clientName).to.equal('Claude Desktop');
    expect(verified.scopes).to.deep.equal([]); // no resource scope = the full maker surface
    // spec: "Refresh token | rotates on each use"
    expect(tokens.refresh_token, 'refresh token without offline_access').to.be.a('string');

    const first = tokens.refresh_token as string;
    const rotated = await oidc.refreshTokenGrant(config, first);
    expect(rotated.refresh_token).to.be.a('string').and.not.equal(first);
    await h.auth.verifyAccessToken(rotated.access_token);

    // RFC 9700 §4.14.2: reuse of a rotated refresh token → rejected, and the whole grant revoked
    const reuse = await oidc.refreshTokenGrant(config, first).then(
      () => null,
      (err: unknown) => err,
    );
    expect(reuse).to.be.instanceOf(oidc.ResponseBodyError);
    expect((reuse as oidc.ResponseBodyError).error).to.equal('invalid_grant');
    const afterReuse = await oidc
      .refreshTokenGrant(config, rotated.refresh_token as string)
      .catch((e: unknown) => e);
    expect((afterReuse as oidc.ResponseBodyError).error).to.equal('invalid_grant');
    const revoked = await h.auth.verifyAccessToken(rotated.access_token).catch((e: unknown) => e);
    expect(revoked).to.be.instanceOf(Unauthenticated);
  });

  it('lists the connected app and, once disconnected, its tokens stop working', async () => {
    const config = await registerClient(h.base, { name: 'Roadmap Bot' });
    const { tokens } = await signInAndExchange(h, config, {
      scope: 'service.public',
      email: EMAIL,
    });
    const userId = h.accounts.byEmail.get(EMAIL) as string;
    expect((await h.auth.verifyAccessToken(tokens.access_token)).scopes).to.deep.equal([
      'service.public',
    ]);

    const apps = await h.auth.listConnectedApps(userId);
    const app = apps.find((a) => a.clientName === 'Roadmap Bot');
    expect(app?.scopes).to.include('service.public');

    expect(await h.auth.revokeConnectedApp(userId, config.clientMetadata().client_id)).to.equal(
      true,
    );
    expect((await h.auth.listConnectedApps(userId)).map((a) => a.clientName)).not.to.include(
      'Roadmap Bot',
    );
    expect(
      await h.auth.verifyAccessToken(tokens.access_token).catch((e: unknown) => e),
    ).to.be.instanceOf(Unauthenticated);
    const refresh = await oidc
      .refreshTokenGrant(config, tokens.refresh_token as string)
      .catch((e: unknown) => e);
    expect((refresh as oidc.ResponseBodyError).error).to.equal('invalid_grant');
    // src/auth/connected-apps.ts: "its grants go, with every refresh token and code hanging off
    // them" — none is left in the store to wait for its 90 days
    const grantId = decodeJwt(tokens.access_token).grant_id;
    for (const kind of ['RefreshToken', 'AuthorizationCode']) {
      const left = await h.readStore().collection(`oauth_${kind}`).countDocuments({ grantId });
      expect(left, kind).to.equal(0);
    }
  });

  it('revokes an access token at /oauth/revoke', async () => {
    const config = await registerClient(h.base, { name: 'Revoker' });
    const { tokens } = await signInAndExchange(h, config, {
      scope: 'openid',
      email: EMAIL,
    });
    await oidc.tokenRevocation(config, tokens.access_token);
    expect(
      await h.auth.verifyAccessToken(tokens.access_token).catch((e: unknown) => e),
    ).to.be.instanceOf(Unauthenticated);
    // the refresh token is a separate credential: revoking it ends the grant
    await oidc.tokenRevocation(config, tokens.refresh_token as string);
    const refresh = await oidc
      .refreshTokenGrant(config, tokens.refresh_token as string)
      .catch((e: unknown) => e);
    expect((refresh as oidc.ResponseBodyError).error).to.equal('invalid_grant');
  });

  it('keeps on the deny list only revoked access tokens that have not expired yet', async () => {
    const config = await registerClient(h.base, { name: 'Revoker twice' });
    const first = (await signInAndExchange(h, config, { scope: 'openid', email: EMAIL })).tokens;
    await oidc.tokenRevocation(config, first.access_token);
    const denied = () => h.readStore().collection<{ _id: string }>('oauth_revoked_jti').find({});
    const firstJti = decodeJwt(first.access_token).jti;
    expect((await denied()).map((d) => d._id)).to.include(firstJti);
    // two hours on, the first token (1 h) has expired: the next revocation prunes its entry
    const realNow = Date.now;
    const shift = 2 * 60 * 60 * 1000;
    Date.now = () => realNow() + shift;
    try {
      const second = (await signInAndExchange(h, config, { scope: 'openid', email: EMAIL })).tokens;
      await oidc.tokenRevocation(config, second.access_token);
      const ids = (await denied()).map((d) => d._id);
      expect(ids).to.include(decodeJwt(second.access_token).jti);
      expect(ids).to.not.include(firstJti);
      expect(
        await h.auth.verifyAccessToken(second.access_token).catch((e: unknown) => e),
      ).to.be.instanceOf(Unauthenticated);
    } finally {
      Date.now = realNow;
    }
  });

  it('keeps a client that refreshes monthly signed in for a year and more (sliding refresh)', async () => {
    // spec: "a client that connects at least monthly never sees the login page again"
    const config = await registerClient(h.base, { name: 'Monthly' });
    let refreshToken = (await signInAndExchange(h, config, { scope: 'openid', email: EMAIL }))
      .tokens.refresh_token as string;
    const realNow = Date.now;
    try {
      for (let month = 1; month <= 15; month++) {
        Date.now = () => realNow() + month * 31 * DAY_MS;
        const next = await oidc.refreshTokenGrant(config, refreshToken);
        await h.auth.verifyAccessToken(next.access_token);
        refreshToken = next.refresh_token as string;
      }
      // a client silent for longer than 90 days has to sign in again
      Date.now = () => realNow() + (15 * 31 + 91) * DAY_MS;
      const dead = await oidc.refreshTokenGrant(config, refreshToken).catch((e: unknown) => e);
      expect((dead as oidc.ResponseBodyError).error).to.equal('invalid_grant');
    } finally {
      Date.now = realNow;
    }
  });

  it('answers the consent denial with access_denied at the redirect URI', async () => {
    const config = await registerClient(h.base, { name: 'Denied App' });
    const pending = await startAuthorization(config, h.base, 'openid');
    const callback = await authorizeOverHttp({
      authUrl: pending.url,
      base: h.base,
      email: 'other@example.com',
      mailboxPath: h.mailboxPath,
      approve: false,
    });
    expect(callback.searchParams.get('error')).to.equal('access_denied');
  });
});
