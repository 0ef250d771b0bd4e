/**
 * OAuth 2.0 on the mounted notes service, driven with openid-client: discovery on both hosts,
 * refresh tokens only with offline_access, lifetimes under a shifted clock, revocation, tokens
 * from either host on both, 401s with WWW-Authenticate, accounts surviving a restart, and the
 * registration limit.
 */
import { expect } from 'chai';
import { oidc } from '../../auth/support/client.js';
import { client, type Json, type NotesE2e, startNotesE2e } from './support.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('Notes OAuth on the running service', function () {
  this.timeout(30_000);
  let e: NotesE2e;
  const realNow = Date.now;
  let offsetMs = 0;

  before(async () => {
    // oidc-provider, jose and openid-client all read Date.now: shifting it moves every clock
    Date.now = () => realNow() + offsetMs;
    e = await startNotesE2e();
  });
  after(async () => {
    Date.now = realNow;
    await e.stop();
  });
  afterEach(() => {
    offsetMs = 0;
  });

  it('serves RFC 8414 discovery on both hosts, each as its own issuer', async () => {
    // spec: "Discovery document: GET {base_url}/.well-known/oauth-authorization-server"
    for (const base of [e.base, e.altBase]) {
      const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
      expect(res.status).to.equal(200);
      const doc = (await res.json()) as Record<string, Json>;
      expect(doc.issuer).to.equal(base);
      expect(doc.registration_endpoint).to.equal(`${base}/oauth/register`);
      expect(doc.revocation_endpoint).to.equal(`${base}/oauth/revoke`);
      expect(doc.scopes_supported).to.include.members(['notes', 'offline_access']);
      expect(doc.code_challenge_methods_supported).to.deep.equal(['S256']);
    }
  });

  describe('When a client asks only for the notes scope', () => {
    it('gets a 30-day access token that works, and no refresh token', async () => {
      // spec: "offline_access (request it to obtain a refresh token)"; "Access token lifetime | 30 days"
      const { tokens, token } = await e.signIn('grace@example.com', { scope: 'notes' });
      expect(tokens.refresh_token).to.equal(undefined);
      expect(tokens.expires_in).to.equal(30 * 24 * 60 * 60);
      expect((await e.api(token)('GET', '/v1/notes')).status).to.equal(200);

      offsetMs = 30 * DAY_MS - 60_000;
      expect((await e.api(token)('GET', '/v1/notes')).status).to.equal(200);
      offsetMs = 30 * DAY_MS + 60_000;
      const expired = await e.api(token)('GET', '/v1/notes');
      // spec: "A missing or expired token gives 401"
      expect(expired.status).to.equal(401);
      expect(expired.body.error).to.match(/expired/);
      expect(expired.headers.get('www-authenticate')).to.match(/^Bearer .*error="invalid_token"/);
    });
  });

  describe('When a client asks for offline_access too', () => {
    it('gets a refresh token that yields working access tokens for 90 days', async () => {
      // spec: "Refresh token lifetime | 90 days"
      const { config, tokens } = await e.signIn('grace@example.com', {
        scope: 'notes offline_access',
      });
      expect(tokens.refresh_token).to.be.a('string');
      offsetMs = 89 * DAY_MS;
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
      expect((await e.api(refreshed.access_token)('GET', '/v1/tags')).status).to.equal(200);
      offsetMs = (89 + 91) * DAY_MS;
      const dead = await oidc
        .refreshTokenGrant(config, refreshed.refresh_token as string)
        .catch((err: unknown) => err);
      expect((dead as oidc.ResponseBodyError).error).to.equal('invalid_grant');
    });
  });

  describe('When a token is revoked', () => {
    it('stops the access token and its refresh token', async () => {
      const { config, tokens, token } = await e.signIn('grace@example.com', {
        scope: 'notes offline_access',
      });
      expect((await e.api(token)('GET', '/v1/devices')).status).to.equal(200);
      await oidc.tokenRevocation(config, tokens.refresh_token as string);
      expect((await e.api(token)('GET', '/v1/devices')).status).to.equal(401);
      const refresh = await oidc
        .refreshTokenGrant(config, tokens.refresh_token as string)
        .catch((err: unknown) => err);
      expect((refresh as oidc.ResponseBodyError).error).to.equal('invalid_grant');
    });

    it('stops a revoked access token', async () => {
      const { config, token } = await e.signIn('grace@example.com', { scope: 'notes' });
      await oidc.tokenRevocation(config, token);
      expect((await e.api(token)('GET', '/v1/notes')).status).to.equal(401);
      // RFC 7009 §2.2: "invalid tokens do not cause an error response": revoking it again is a 200
      const again = await fetch(`${e.base}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: config.clientMetadata().client_id }),
      });
      expect(again.status).to.equal(200);
    });

    it('refuses a revocation that names no client, and the token keeps working', async () => {
      // RFC 7009 §2.1: the request carries the client's identification; a refused request is
      // reported to the client (not a 200 that revoked nothing)
      const { token } = await e.signIn('grace@example.com', { scope: 'notes' });
      const res = await fetch(`${e.base}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }),
      });
      expect(res.status).to.equal(400);
      expect(((await res.json()) as { error: string }).error).to.equal('invalid_request');
      expect((await e.api(token)('GET', '/v1/notes')).status).to.equal(200);
    });

    it("leaves another client's access token working", async () => {
      // RFC 7009 §2.1: the server "verifies whether the token was issued to the client making the
      // revocation request": an app that got hold of another app's token cannot cut it off
      const { token } = await e.signIn('grace@example.com', { scope: 'notes' });
      const other = await e.signIn('grace@example.com', { scope: 'notes' });
      await oidc.tokenRevocation(other.config, token);
      expect((await e.api(token)('GET', '/v1/notes')).status).to.equal(200);
    });
  });

  describe('When a token was obtained through one host', () => {
    it('works on both hosts, whichever host issued it', async () => {
      // spec: "the same API is also served from a second host ... and either host works"
      const viaAlt = await e.signIn('lin@example.com', { base: e.altBase });
      const viaMain = await e.signIn('lin@example.com');
      const created = await e.api(viaAlt.token, e.base)('POST', '/v1/notes', {
        content: 'two hosts',
      });
      expect(created.status).to.equal(201);
      for (const [token, base] of [
        [viaAlt.token, e.altBase],
        [viaMain.token, e.altBase],
        [viaMain.token, e.base],
      ] as const) {
        const got = await e.api(token, base)('GET', `/v1/notes/${created.body.id}`);
        expect(got.status, base).to.equal(200);
      }
    });
  });

  describe('When a request carries no usable token', () => {
    it('answers 401 {error} with a WWW-Authenticate that points at the host asked', async () => {
      for (const base of [e.base, e.altBase]) {
        const none = await client(base)('GET', '/v1/notes');
        expect(none.status).to.equal(401);
        expect(Object.keys(none.body)).to.deep.equal(['error']);
        expect(none.headers.get('www-authenticate')).to.equal(
          `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`,
        );
      }
      const forged = await client(e.base, 'eyJhbGciOiJub25lIn0.e30.')('GET', '/v1/tags');
      expect(forged.status).to.equal(401);
      expect(forged.headers.get('www-authenticate')).to.match(/error="invalid_token"/);
      const basic = await client(e.base)('GET', '/v1/tags', undefined, {
        authorization: 'Basic dTpw',
      });
      expect(basic.status).to.equal(401);
    });
  });

  describe('When a token lacks the notes scope', () => {
    it('answers 403 {error} with an insufficient_scope challenge', async () => {
      // spec: "exactly one scope, notes, covering read and write of notes, tags and devices"
      // a refresh may narrow the scope (RFC 6749 §6): down to offline_access, without notes
      const { config, tokens } = await e.signIn('grace@example.com', {
        scope: 'notes offline_access',
      });
      const narrowed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string, {
        scope: 'offline_access',
      });
      const res = await e.api(narrowed.access_token)('GET', '/v1/notes');
      expect(res.status).to.equal(403);
      expect(Object.keys(res.body)).to.deep.equal(['error']);
      expect(res.headers.get('www-authenticate')).to.match(
        /error="insufficient_scope", scope="notes"/,
      );
    });
  });

  describe('When the service restarts', () => {
    it('keeps the account: the same e-mail signs in again to the same notes', async () => {
      const before = await e.signIn('restart@example.com');
      const note = (await e.api(before.token)('POST', '/v1/notes', { content: 'survives' })).body;
      await e.t.restart();
      // port 0: the restarted service listens elsewhere, so it is a new issuer
      const base = e.t.url('notes');
      const after = await e.signIn('restart@example.com', { base });
      const got = await e.api(after.token, base)('GET', `/v1/notes/${note.id}`);
      expect(got.status).to.equal(200);
      expect(got.body.content).to.equal('survives');
    });
  });
});

describe('When one address registers notes clients for an hour', function () {
  this.timeout(30_000);
  let e: NotesE2e;
  before(async () => {
    e = await startNotesE2e();
  });
  after(async () => e.stop());

  it('refuses the 31st registration with 429 and Retry-After', async () => {
    // issue 6: "POST /oauth/register (dynamic registration, 30 per IP per hour, then 429)"
    const body = JSON.stringify({
      client_name: 'x',
      redirect_uris: [`${e.base}/cb`],
      token_endpoint_auth_method: 'none',
    });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await fetch(`${e.base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      statuses.push(res.status);
      // notes spec: "client registration | 30 registrations per IP address per hour": the wait is
      // until the first of the 30, made moments ago, is an hour old
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).to.be.within(3560, 3600);
      }
    }
    expect(statuses.slice(0, 30).every((s) => s === 201)).to.equal(true);
    expect(statuses[30]).to.equal(429);
  });

  it('refuses it as an OAuth error, temporarily_unavailable, that openid-client reads (RFC 7591 §3.2.2)', async () => {
    const refusal = await oidc
      .dynamicClientRegistration(
        new URL(e.base),
        { redirect_uris: [`${e.base}/cb`], token_endpoint_auth_method: 'none' },
        oidc.None(),
        { execute: [oidc.allowInsecureRequests], algorithm: 'oauth2' },
      )
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refusal).to.be.instanceOf(oidc.ResponseBodyError);
    const { status, error, error_description, response } = refusal as oidc.ResponseBodyError;
    expect([status, error]).to.deep.equal([429, 'temporarily_unavailable']);
    expect(error_description).to.match(/too many client registrations/);
    expect(response.headers.get('retry-after')).to.match(/^\d+$/);
  });
});
