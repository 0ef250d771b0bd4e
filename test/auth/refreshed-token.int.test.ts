/**
 * What an app gets back from a refresh, against what the code exchange gave it, on both
 * services, with openid-client over HTTP.
 *
 * RFC 6749 §6, of the refresh request's scope: "The requested scope MUST NOT include any scope
 * not originally granted by the resource owner, and if omitted is treated as equal to the scope
 * originally granted"; §5.1: the response `scope` is "OPTIONAL, if identical to the scope
 * requested by the client; otherwise, REQUIRED". Every access token is for the service's API
 * (RFC 8707 §2: "The authorization server SHOULD audience-restrict issued access tokens to the
 * resource(s) indicated"), so it carries only the resource's scopes: on
 * feedback a grant without `service.public` gives a token with no data scope, the full maker
 * surface a request without one asks for ("default (no scope) = full maker surface"): identical
 * to the request, so the answer has no `scope` (oidc-provider said `scope: ""`, "a space-delimited
 * list" of nothing, which a client reads as no scope granted at all).
 * oidc-provider's userinfo takes only its own opaque tokens without an audience ("token audience
 * prevents accessing the userinfo endpoint"), so no token an app holds could read it: the feedback
 * service offers none (OpenID Connect Discovery 1.0 §3: `userinfo_endpoint` is RECOMMENDED, so an
 * advertised one must work) and the claims come in the ID token instead.
 */
import { expect } from 'chai';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { feedbackAuthPreset, notesAuthPreset } from '../../src/auth/index.js';
import { oidc, registerClient } from './support/client.js';
import { signInAndExchange } from './support/flow.js';
import { type Harness, startHarness } from './support/harness.js';

const EMAIL = 'app-owner@example.com';

/** what a client can see of an access token and the answer that carried it */
function shape(tokens: oidc.TokenEndpointResponse) {
  const claims = decodeJwt(tokens.access_token);
  return {
    scope: tokens.scope,
    typ: decodeProtectedHeader(tokens.access_token).typ,
    aud: claims.aud,
    scopeClaim: claims.scope,
    grant: claims.grant_id,
  };
}

async function connectAndRefresh(h: Harness, scope: string, algorithm: 'oidc' | 'oauth2') {
  const config = await registerClient(h.base, { name: 'Refreshing App', algorithm });
  const { tokens } = await signInAndExchange(h, config, { scope, email: EMAIL });
  const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
  return { config, tokens, refreshed };
}

/** what openid-client makes of a userinfo request: the claims, or the error it throws */
async function userinfoAttempt(config: oidc.Configuration, accessToken: string) {
  return oidc.fetchUserInfo(config, accessToken, oidc.skipSubjectCheck).then(
    (claims) => claims,
    (error: unknown) => error,
  );
}

describe('When an app refreshes its access token on the feedback service', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...feedbackAuthPreset, serviceName: 'Feedback' });
  });
  after(async () => h.close());

  for (const [asked, tokenScope] of [
    ['openid offline_access', undefined],
    ['openid email offline_access', undefined],
    ['openid service.public offline_access', 'service.public'],
  ] as const) {
    it(`gets the scope, audience and format of its first token (asked: ${asked})`, async () => {
      // RFC 6749 §6: the refreshed token's scope is the one originally granted, no narrower
      const { tokens, refreshed } = await connectAndRefresh(h, asked, 'oidc');
      const first = shape(tokens);
      expect(first).to.deep.include({ scope: tokenScope, typ: 'at+jwt', aud: h.base });
      expect(shape(refreshed)).to.deep.equal(first);
      // §5.1: a full-surface token is what was asked for, so no `scope` (never "", no scope)
      for (const answer of [tokens, refreshed]) {
        expect(Object.keys(answer).includes('scope'), 'answer has scope').to.equal(!!tokenScope);
      }
      expect((await h.auth.verifyAccessToken(refreshed.access_token)).scopes).to.deep.equal(
        (await h.auth.verifyAccessToken(tokens.access_token)).scopes,
      );
    });
  }

  it('finds no userinfo endpoint to call, and reads the claims from each ID token', async () => {
    // an advertised userinfo_endpoint answered 401 invalid_token to every token (each is a JWT
    // for the API, RFC 8707 §2): a client must not be sent to an endpoint none of its tokens reach
    const { config, tokens, refreshed } = await connectAndRefresh(
      h,
      'openid email offline_access',
      'oidc',
    );
    expect(config.serverMetadata().userinfo_endpoint).to.equal(undefined);
    for (const token of [tokens.access_token, refreshed.access_token]) {
      const attempt = await userinfoAttempt(config, token);
      expect(attempt, 'userinfo answered').to.be.instanceOf(oidc.ClientError);
      expect((attempt as oidc.ClientError).code).to.equal('OAUTH_MISSING_SERVER_METADATA');
    }
    expect((await fetch(`${h.base}/oauth/userinfo`)).status).to.equal(404);
    const sub = h.accounts.byEmail.get(EMAIL);
    for (const answer of [tokens, refreshed]) {
      expect(answer.claims()).to.deep.include({ sub, email: EMAIL, email_verified: true });
    }
  });
});

describe('When an app refreshes its access token on the notes service', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...notesAuthPreset, serviceName: 'Notes' });
  });
  after(async () => h.close());

  it('gets scope notes, audience and format as from the code exchange; there is no userinfo', async () => {
    const { config, tokens, refreshed } = await connectAndRefresh(
      h,
      'notes offline_access',
      'oauth2',
    );
    const first = shape(tokens);
    expect(first).to.deep.include({ scope: 'notes', typ: 'at+jwt', aud: h.base });
    expect(shape(refreshed)).to.deep.equal(first);
    // an OAuth 2.0 server (RFC 8414), not an OpenID provider: no userinfo endpoint to call
    expect(config.serverMetadata().userinfo_endpoint).to.equal(undefined);
    expect((await fetch(`${h.base}/oauth/userinfo`)).status).to.equal(404);
  });
});
