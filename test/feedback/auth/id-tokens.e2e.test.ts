/**
 * Identity-provider ID tokens as bearer credentials on the feedback API (spec "Identity-provider
 * ID tokens"): the service's own first-party client works out of the box; TRUSTED_ID_TOKEN_ISSUERS
 * adds upstream issuers (here a JWKS served by the test). Documented statuses:
 *   valid, account with that e-mail      -> as the maker (200)
 *   expired / wrong audience / unknown issuer / bad signature -> 401 unauthenticated
 *   anonymous session                    -> 401 unauthenticated
 *   no maker account for the e-mail      -> 401 unauthenticated
 *   JWKS unreachable                     -> 401 unauthenticated (never a 500)
 *   another OAuth client's ID token      -> 401 (only first-party ID tokens are credentials)
 * Writes with an ID token carry no attribution label.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { type FeedbackHarness, type Workspace, startFeedback } from '../support/harness.js';
import { connectClient, firstPartySignIn } from '../support/oauth.js';

const AUDIENCE = 'board-mobile-app';
const PRODUCTS = '/v1/workspaces/acme-co/products';

describe('Identity-provider ID tokens (e2e)', () => {
  let fb: FeedbackHarness;
  let jwksServer: http.Server;
  let issuer: string;
  let ws: Workspace;
  let sign: (
    claims: Record<string, unknown>,
    /** `exp: null`: no expiry claim at all */
    /** `iat`: when it says it was issued, as jose's setIssuedAt takes it (default now) */
    opts?: { exp?: string | null; aud?: string; iss?: string; iat?: string },
  ) => Promise<string>;
  let signWithStrangerKey: (claims: Record<string, unknown>) => Promise<string>;

  before(async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const stranger = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' };
    jwksServer = http.createServer((req, res) => {
      if (req.url === '/jwks') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ keys: [jwk] }));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}`;
    const build = (
      claims: Record<string, unknown>,
      opts: { exp?: string | null; aud?: string; iss?: string; iat?: string } = {},
    ) => {
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(opts.iss ?? issuer)
        .setAudience(opts.aud ?? AUDIENCE)
        .setSubject('idp-user-1')
        .setIssuedAt(opts.iat);
      return opts.exp === null ? jwt : jwt.setExpirationTime(opts.exp ?? '1h');
    };
    sign = (claims, opts) => build(claims, opts).sign(privateKey);
    signWithStrangerKey = (claims) => build(claims).sign(stranger.privateKey);

    const deadPort = await closedPort();
    fb = await startFeedback({
      env: {
        TRUSTED_ID_TOKEN_ISSUERS: JSON.stringify([
          { issuer, jwksUrl: `${issuer}/jwks`, audience: AUDIENCE },
          {
            issuer: 'https://unreachable.example.test',
            jwksUrl: `http://127.0.0.1:${deadPort}/jwks`,
            audience: AUDIENCE,
          },
        ]),
      },
    });
    const owner = await fb.createMaker('ida@acme.io');
    ws = await fb.createWorkspace(owner, { slug: 'acme-co', name: 'Acme' });
    await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
  });
  after(async () => {
    await fb.stop();
    await new Promise<void>((resolve) => jwksServer.close(() => resolve()));
  });

  function expect401(res: { status: number; headers: Headers; body: any }) {
    expect(res.status).to.equal(401);
    expect(res.body).to.have.keys(['error', 'code']);
    expect(res.body.code).to.equal('unauthenticated');
    expect(res.headers.get('www-authenticate')).to.include('resource_metadata=');
  }

  describe('When a trusted upstream issuer signed it', () => {
    it('authenticates as the maker with that e-mail', async () => {
      const res = await fb
        .api(await sign({ email_verified: true, email: 'ida@acme.io' }))
        .get(PRODUCTS);
      expect(res.status).to.equal(200);
    });

    it('records writes without an attribution label', async () => {
      // spec "Attribution labels": Identity-provider ID token -> no label
      const token = await sign({ email_verified: true, email: 'ida@acme.io' });
      const res = await fb
        .api(token)
        .post('/v1/public/acme-co/APP/feedback', { body: 'Via my IdP' });
      expect(res.status).to.equal(200);
      const item = await fb.api(token).get(`${PRODUCTS}/APP/items/${res.body.itemId}`);
      expect(item.body.item).not.to.have.property('via');
      const events = await fb.runtime.runtime.stores.eventStore.readStream(
        `item-${ws.workspaceId}.${res.body.itemId}`,
      );
      expect(events[0]?.metadata.via ?? null).to.equal(null);
    });

    it('answers 401 when it has expired', async () => {
      expect401(
        await fb
          .api(await sign({ email_verified: true, email: 'ida@acme.io' }, { exp: '-1m' }))
          .get(PRODUCTS),
      );
    });

    // OIDC Core §2: exp is REQUIRED in an ID token; §3.1.3.7: "The current time MUST be before
    // the time represented by the exp Claim." One without exp would be a credential for ever.
    it('answers 401 when it carries no expiry at all', async () => {
      const res = await fb
        .api(await sign({ email_verified: true, email: 'ida@acme.io' }, { exp: null }))
        .get(PRODUCTS);
      expect401(res);
      expect(res.body.error).to.equal('ID token rejected (ERR_JWT_CLAIM_VALIDATION_FAILED)');
    });

    // OIDC Core §3.1.3.7: "The iat Claim can be used to reject tokens that were issued too far
    // away from the current time"; one dated ahead is refused like one without exp
    it('answers 401 when it says it was issued in the future', async () => {
      const res = await fb
        .api(await sign({ email_verified: true, email: 'ida@acme.io' }, { iat: '+2m', exp: '1h' }))
        .get(PRODUCTS);
      expect401(res);
      expect(res.body.error).to.equal('ID token rejected (issued in the future)');
    });

    it('answers 401 when it was issued for another audience', async () => {
      expect401(
        await fb
          .api(await sign({ email_verified: true, email: 'ida@acme.io' }, { aud: 'someone-else' }))
          .get(PRODUCTS),
      );
    });

    it('answers 401 when the signature is not the issuer key', async () => {
      expect401(
        await fb
          .api(await signWithStrangerKey({ email_verified: true, email: 'ida@acme.io' }))
          .get(PRODUCTS),
      );
    });

    it('answers 401 for an anonymous session', async () => {
      // spec: "Anonymous sessions are rejected"
      const res = await fb
        .api(await sign({ email_verified: true, email: 'ida@acme.io', is_anonymous: true }))
        .get(PRODUCTS);
      expect401(res);
      expect(res.body.error).to.match(/anonymous/);
    });

    it('lets a user without a workspace in, but refuses them an API token', async () => {
      // spec: "Only makers can create one; an anonymous session or an account with no
      // workspace is refused."
      await fb.createUser('solo@nowhere.io');
      const api = fb.api(await sign({ email_verified: true, email: 'solo@nowhere.io' }));
      expect((await api.get('/v1/me/tokens')).status).to.equal(200);
      const res = await api.post('/v1/me/tokens', { name: 'mine' });
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('permission-denied');
    });

    // README (Identity-provider ID tokens): the e-mail names an account only when the issuer
    // verified it. Privacy audit: an ID token for the admin's address with email_verified false
    // (any sign-up at such an issuer) answered 200 and minted a lasting personal API token.
    it('answers 401 when the issuer did not verify the e-mail, and no token can be minted with it', async () => {
      for (const claims of [
        { email: 'ida@acme.io' },
        { email: 'ida@acme.io', email_verified: false },
        { email: 'ida@acme.io', email_verified: 'false' },
      ]) {
        const api = fb.api(await sign(claims));
        const res = await api.get(PRODUCTS);
        expect401(res);
        expect(res.body.error).to.match(/verified e-mail/);
        expect401(await api.post('/v1/me/tokens', { name: 'persist' }));
      }
    });

    it('answers 401 when no maker account has that e-mail', async () => {
      expect401(
        await fb.api(await sign({ email_verified: true, email: 'nobody@else.io' })).get(PRODUCTS),
      );
    });
  });

  describe('When the issuer is not trusted or cannot be reached', () => {
    it('answers 401 for an unknown issuer', async () => {
      const res = await fb
        .api(
          await sign(
            { email_verified: true, email: 'ida@acme.io' },
            { iss: 'https://evil.example.test' },
          ),
        )
        .get(PRODUCTS);
      expect401(res);
      expect(res.body.error).to.match(/untrusted issuer/);
    });

    it('answers 401, not 500, when the issuer JWKS is unreachable', async () => {
      const res = await fb
        .api(
          await sign(
            { email_verified: true, email: 'ida@acme.io' },
            { iss: 'https://unreachable.example.test' },
          ),
        )
        .get(PRODUCTS);
      expect401(res);
    });
  });

  describe("When the service's own clients issued it", () => {
    it("accepts the first-party client's ID token and refuses a third-party client's", async () => {
      const own = await firstPartySignIn(fb, 'ida@acme.io');
      expect((await fb.api(own.id_token).get(PRODUCTS)).status).to.equal(200);

      const third = await connectClient(fb, { email: 'ida@acme.io', name: 'Some Agent' });
      expect(third.tokens.id_token).to.be.a('string');
      expect401(await fb.api(third.tokens.id_token).get(PRODUCTS));
      // its access token, on the other hand, is a credential
      expect((await fb.api(third.accessToken).get(PRODUCTS)).status).to.equal(200);
    });
  });
});

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
