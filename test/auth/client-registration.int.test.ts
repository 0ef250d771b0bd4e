/**
 * Issue 10 item 8: "Client registration accepts a plain-http, non-loopback redirect URI
 * (http://evil.example/cb): refuse it. For native apps (RFC 8252 §7.3) accept a loopback
 * redirect on any port and private-use URI schemes (com.example.app:/cb), which are refused today."
 */
import { expect } from 'chai';
import { feedbackAuthPreset, notesAuthPreset } from '../../src/auth/index.js';
import { authorizeOverHttp } from './support/browserless.js';
import { exchange, oidc, registerClient, startAuthorization } from './support/client.js';
import { signInAndExchange } from './support/flow.js';
import { type Harness, startHarness } from './support/harness.js';

const register = (h: Harness, metadata: Record<string, unknown>) =>
  fetch(`${h.base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token_endpoint_auth_method: 'none', ...metadata }),
  });

describe('When a client registers its redirect URIs', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...feedbackAuthPreset });
  });
  after(() => h.close());

  it('refuses a plain-http redirect URI on another host with invalid_redirect_uri', async () => {
    for (const uri of ['http://evil.example/cb', 'http://10.0.0.8:8080/cb']) {
      // also for a client that calls itself a web app, for which oidc-provider allows http
      for (const metadata of [{}, { application_type: 'web' }]) {
        const res = await register(h, { redirect_uris: [uri], ...metadata });
        expect(res.status, uri).to.equal(400);
        const body = (await res.json()) as Record<string, string>;
        expect(body.error).to.equal('invalid_redirect_uri');
        expect(body.error_description).to.include('loopback');
      }
    }
  });

  // RFC 9700 §2.1: redirect URIs are compared as exact strings, so a `*` is no wildcard; a user
  // name or password in one is deprecated (RFC 3986 §3.2.1) and would ride along every redirect
  it('refuses a * in the host or path, and a user name or password, with invalid_redirect_uri (openid-client)', async () => {
    for (const uri of [
      'https://*.example.com/cb',
      'https://app.example.com/callback/*',
      'com.example.app://*/cb',
      'https://user:secret@app.example.com/cb',
    ]) {
      const refusal = await registerClient(h.base, { redirectUri: uri }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal, uri).to.be.instanceOf(oidc.ResponseBodyError);
      expect((refusal as oidc.ResponseBodyError).error, uri).to.equal('invalid_redirect_uri');
      expect((refusal as oidc.ResponseBodyError).error_description, uri).to.include(uri);
    }
    // a * in the query is an ordinary character of an exactly compared URI
    expect(await registerClient(h.base, { redirectUri: 'https://app.example.com/cb?x=*' })).to.be
      .ok;
  });

  // README (Security): "Registered redirect URIs must be https, a loopback
  // `http://127.0.0.1|[::1]|localhost` address ... or a private-use scheme"
  it('accepts a plain-http redirect URI on each loopback name', async () => {
    for (const uri of ['http://127.0.0.1:9/cb', 'http://[::1]:9/cb', 'http://localhost:9/cb']) {
      const res = await register(h, { redirect_uris: [uri] });
      expect(res.status, uri).to.equal(201);
      expect(((await res.json()) as Record<string, string>).application_type).to.equal('native');
    }
  });

  it('refuses a body that is not JSON with invalid_client_metadata', async () => {
    const res = await fetch(`${h.base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"redirect_uris": [',
    });
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: string }).error).to.equal('invalid_client_metadata');
  });

  it('accepts a loopback redirect and lets a native app use it on any port (RFC 8252 §7.3)', async () => {
    // registered on port 9; the app comes back on whatever port it opened, here the harness's
    const config = await registerClient(h.base, { redirectUri: 'http://127.0.0.1:9/cb' });
    expect(config.clientMetadata().application_type).to.equal('native');
    const pending = await startAuthorization(config, h.base, 'openid');
    const callback = await authorizeOverHttp({
      authUrl: pending.url,
      base: h.base,
      email: 'native@example.com',
      mailboxPath: h.mailboxPath,
    });
    expect(callback.port).to.equal(new URL(h.base).port);
    const tokens = await exchange(config, callback, pending);
    expect(tokens.access_token).to.be.a('string');
  });

  it('accepts a private-use URI scheme and redirects to it with the code', async () => {
    const redirect = 'com.example.app:/cb';
    const config = await registerClient(h.base, { redirectUri: redirect });
    expect(config.clientMetadata().redirect_uris).to.deep.equal([redirect]);
    const { url, verifier, state } = await startAuthorization(config, h.base, 'openid', redirect);
    const callback = await authorizeOverHttp({
      authUrl: url,
      base: h.base,
      email: 'app@example.com',
      mailboxPath: h.mailboxPath,
    });
    expect(`${callback.protocol}${callback.pathname}`).to.equal(redirect);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.access_token).to.be.a('string');
  });
});

describe('When a notes client registers with the data scope as its scope', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...notesAuthPreset });
  });
  after(async () => h.close());

  // notes spec: "POST /oauth/register | dynamic client registration; returns a client ID" and
  // "Data scope | exactly one scope, notes"; RFC 7591 §2 lets a client name the scope it will ask
  // for, as MCP clients do with the protected resource's scopes
  it('registers it and signs it in for notes', async () => {
    const config = await registerClient(h.base, { algorithm: 'oauth2', scope: 'notes' });
    const { tokens } = await signInAndExchange(h, config, { scope: 'notes', email: 'n@a.io' });
    expect(tokens.access_token).to.be.a('string');
  });
});
