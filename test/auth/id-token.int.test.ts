/**
 * Identity-provider ID tokens as bearer credentials: the service's own first-party client's ID
 * tokens work out of the box; expired, wrong audience, unknown issuer, anonymous sessions and
 * unreachable or misconfigured JWKS are all Unauthenticated (a 401 for the API, never a 500).
 */
import { signInAndExchange } from './support/flow.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import {
  createIdTokenVerifier,
  feedbackAuthPreset,
  Unauthenticated,
} from '../../src/auth/index.js';
import { oidc, registerClient } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';

const UPSTREAM = 'https://accounts.example.test';
const AUDIENCE = 'board-app-client-id';

async function rejection(p: Promise<unknown>): Promise<Unauthenticated> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).to.be.instanceOf(Unauthenticated);
  return err as Unauthenticated;
}

describe('When an upstream identity provider ID token is presented', () => {
  let server: http.Server;
  let jwksUrl: string;
  let htmlUrl: string;
  let sign: (claims: Record<string, unknown>, exp?: string) => Promise<string>;

  before(async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' };
    sign = (claims, exp = '1h') =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(UPSTREAM)
        .setAudience(AUDIENCE)
        .setSubject('google-123')
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(privateKey);
    server = http.createServer((req, res) => {
      if (req.url === '/jwks')
        res.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [jwk] }));
      else res.setHeader('content-type', 'text/html').end('<html>not keys</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    jwksUrl = `http://127.0.0.1:${port}/jwks`;
    htmlUrl = `http://127.0.0.1:${port}/page`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const verifier = (url: string) =>
    createIdTokenVerifier({
      trustedIssuers: [{ issuer: UPSTREAM, jwksUrl: url, audience: AUDIENCE }],
    });

  it('accepts a valid token from a trusted issuer', async () => {
    const verified = await verifier(jwksUrl)(
      await sign({ email: 'a@example.com', email_verified: true }),
    );
    expect(verified).to.deep.include({
      userId: 'google-123',
      issuer: UPSTREAM,
      email: 'a@example.com',
    });
  });

  it('names no e-mail address the issuer did not verify', async () => {
    for (const claims of [
      { email: 'a@example.com' },
      { email: 'a@example.com', email_verified: false },
    ]) {
      const verified = await verifier(jwksUrl)(await sign(claims));
      expect(verified.email).to.equal(null);
    }
  });

  it('rejects an expired token', async () => {
    await rejection(verifier(jwksUrl)(await sign({}, '-1m')));
  });

  it('rejects a token for another audience', async () => {
    const other = createIdTokenVerifier({
      trustedIssuers: [{ issuer: UPSTREAM, jwksUrl, audience: 'someone-else' }],
    });
    await rejection(other(await sign({})));
  });

  it('rejects a token from an unknown issuer', async () => {
    const none = createIdTokenVerifier({
      trustedIssuers: [{ issuer: 'https://other.example', jwksUrl, audience: AUDIENCE }],
    });
    expect((await rejection(none(await sign({})))).message).to.match(/untrusted issuer/);
  });

  // spec: "Anonymous sessions are rejected; they can post feedback from a public page but never reach the API."
  it('rejects anonymous sessions', async () => {
    await rejection(verifier(jwksUrl)(await sign({ anonymous: true })));
    await rejection(verifier(jwksUrl)(await sign({ is_anonymous: true })));
    await rejection(verifier(jwksUrl)(await sign({ amr: ['anon'] })));
  });

  it('rejects (never crashes) when the JWKS is unreachable, not a JWKS, or not a URL', async () => {
    const token = await sign({});
    await rejection(verifier('http://127.0.0.1:1/jwks')(token));
    await rejection(verifier(htmlUrl)(token));
    await rejection(verifier('not a url')(token));
    await rejection(verifier(jwksUrl)('garbage'));
  });
});

describe("When the service's own first-party client presents its ID token", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...feedbackAuthPreset, withFirstPartyClient: true });
  });
  after(async () => h.close());

  it("trusts it out of the box, but not a third-party client's ID token", async () => {
    const firstParty = await oidc.discovery(
      new URL(h.base),
      'first-party-web',
      undefined,
      oidc.None(),
      {
        execute: [oidc.allowInsecureRequests],
      },
    );
    const { tokens } = await signInAndExchange(h, firstParty, {
      scope: 'openid email',
      email: 'own@example.com',
    });
    const verified = await h.auth.verifyIdToken(tokens.id_token);
    expect(verified.userId).to.equal(h.accounts.byEmail.get('own@example.com'));
    expect(verified.email).to.equal('own@example.com');

    const thirdParty = await registerClient(h.base);
    const { tokens: t2 } = await signInAndExchange(h, thirdParty, {
      scope: 'openid',
      email: 'own@example.com',
    });
    await rejection(h.auth.verifyIdToken(t2.id_token));
    // and an access token is not an ID token
    await rejection(h.auth.verifyIdToken(tokens.access_token));
  });
});
