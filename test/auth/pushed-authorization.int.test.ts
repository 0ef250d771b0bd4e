/**
 * Issue 10 item 10: "Discovery advertises pushed_authorization_request_endpoint (…/request),
 * which answers 404. Serve PAR or do not advertise it." Served (RFC 9126), with openid-client's
 * own PAR support as the client.
 */
import { expect } from 'chai';
import { feedbackAuthPreset, notesAuthPreset } from '../../src/auth/index.js';
import { authorizeOverHttp } from './support/browserless.js';
import { exchange, oidc, registerClient } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';

describe('When a client pushes its authorization request (PAR)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...feedbackAuthPreset });
  });
  after(() => h.close());

  it('advertises a PAR endpoint that answers, and the pushed request completes the flow', async () => {
    const doc = (await (await fetch(`${h.base}/.well-known/openid-configuration`)).json()) as {
      pushed_authorization_request_endpoint: string;
    };
    expect(doc.pushed_authorization_request_endpoint).to.equal(`${h.base}/oauth/par`);

    const config = await registerClient(h.base, { name: 'Pusher' });
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = await oidc.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: `${h.base}/cb`,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    expect(url.searchParams.get('request_uri')).to.match(/^urn:ietf:params:oauth:request_uri:/);
    const callback = await authorizeOverHttp({
      authUrl: url.href,
      base: h.base,
      email: 'par@example.com',
      mailboxPath: h.mailboxPath,
    });
    const tokens = await exchange(config, callback, { verifier, state });
    expect((await h.auth.verifyAccessToken(tokens.access_token)).clientName).to.equal('Pusher');
  });

  it('gives a pushed request without scope the default scope too', async () => {
    const config = await registerClient(h.base, { name: 'Pusher without scope' });
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = await oidc.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: `${h.base}/cb`,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const callback = await authorizeOverHttp({
      authUrl: url.href,
      base: h.base,
      email: 'par@example.com',
      mailboxPath: h.mailboxPath,
    });
    expect(callback.searchParams.get('error')).to.equal(null);
    const tokens = await exchange(config, callback, { verifier, state });
    expect((await h.auth.verifyAccessToken(tokens.access_token)).scopes).to.deep.equal([]);
  });
});

describe('When a notes client looks for the PAR endpoint', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...notesAuthPreset });
  });
  after(() => h.close());

  it('finds one that accepts a pushed request', async () => {
    const doc = (await (
      await fetch(`${h.base}/.well-known/oauth-authorization-server`)
    ).json()) as {
      pushed_authorization_request_endpoint: string;
    };
    const config = await registerClient(h.base, { algorithm: 'oauth2' });
    const res = await fetch(doc.pushed_authorization_request_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: config.clientMetadata().client_id,
        response_type: 'code',
        redirect_uri: `${h.base}/cb`,
        scope: 'notes offline_access',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      }),
    });
    expect(res.status).to.equal(201);
    expect(await res.json()).to.have.keys(['request_uri', 'expires_in']);
  });
});
