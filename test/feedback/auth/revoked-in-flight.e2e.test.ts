/**
 * A credential revoked while its request is still on its way does not act: README "a revocation
 * applies to the very next request" would otherwise leave out the one whose body was still being
 * sent. The request was authenticated when its headers arrived; once its body is whole a write is
 * authenticated again, live (src/http/steps/input.ts recheckCredential).
 */
import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { exportJWK, SignJWT } from 'jose';
import { CookieJar } from '../../auth/support/browserless.js';
import { slowPost as postSlowly } from '../../support/slow-body.js';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';
import { authorizeClient, connectClient, oidc } from '../support/oauth.js';

describe('When a personal token is revoked while its request body is still being sent (e2e)', () => {
  let fb: FeedbackHarness;
  let maker: Maker;

  before(async () => {
    fb = await startFeedback();
    maker = await fb.createMaker('max@acme.io');
    await fb.createProduct(maker.home, { key: 'APP', name: 'App', visibility: 'public' });
  });
  after(() => fb.stop());

  const slowPost = (
    path: string,
    headers: Record<string, string>,
    body: string,
    meanwhile: () => Promise<void>,
  ) => postSlowly(new URL(path, fb.url).href, headers, body, meanwhile);

  it('answers 401 and writes nothing', async () => {
    const path = `/v1/public/${maker.home.slug}/APP/feedback`;
    const body = JSON.stringify({ body: 'Sent by a token revoked meanwhile' });
    const res = await slowPost(path, { authorization: `Bearer ${maker.token}` }, body, async () => {
      const revoked = await fb.api(maker.token).del(`/v1/me/tokens/${maker.tokenId}`);
      expect(revoked.status).to.be.oneOf([200, 204]);
    });
    expect(res.status, res.text).to.equal(401);
    const items = await fb.runtime.runtime.stores.readStore.collection('items').countDocuments({});
    expect(items, 'no item was written').to.equal(0);
  });

  it('answers 401 to an app disconnected meanwhile, and writes nothing', async () => {
    // README "Revocation": disconnecting an app (revoke_connected_app) stops its tokens; the
    // grant is no event, so only checking the token again live sees it gone
    const eva = await fb.createMaker('eva@acme.io');
    const app = await connectClient(fb, { email: eva.email, scope: 'openid offline_access' });
    const items = fb.runtime.runtime.stores.readStore.collection('items');
    const before = await items.countDocuments({});
    const path = `/v1/public/${maker.home.slug}/APP/feedback`;
    const body = JSON.stringify({ body: 'Sent by an app disconnected meanwhile' });
    const headers = { authorization: `Bearer ${app.accessToken}` };
    const res = await slowPost(path, headers, body, async () => {
      const revoked = await fb.api(eva.token).del(`/v1/me/apps/${app.clientId}`);
      expect(revoked.status).to.equal(204);
    });
    expect(res.status, res.text).to.equal(401);
    expect(await items.countDocuments({}), 'no item was written').to.equal(before);
  });

  it('lets a DPoP-bound OAuth request on its way act when another credential was revoked', async () => {
    // RFC 9449 §11.1: a proof is used once; checking the request again must not present it twice
    const other = await fb.createMaker('ida@acme.io');
    const keys = await oidc.randomDPoPKeyPair('ES256');
    const pending = await authorizeClient(fb, { email: 'ida@acme.io', jar: new CookieJar() });
    const tokens = await oidc.authorizationCodeGrant(
      pending.config,
      pending.callback,
      { pkceCodeVerifier: pending.verifier, expectedState: pending.state },
      undefined,
      { DPoP: oidc.getDPoPHandle(pending.config, keys) },
    );
    const path = `/v1/public/${maker.home.slug}/APP/feedback`;
    const proof = await new SignJWT({
      htm: 'POST',
      htu: new URL(path, fb.url).href,
      ath: createHash('sha256').update(tokens.access_token).digest('base64url'),
      jti: randomUUID(),
    })
      .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: await exportJWK(keys.publicKey) })
      .setIssuedAt()
      .sign(keys.privateKey);
    const body = JSON.stringify({ body: 'Sent while someone else was revoked' });
    const headers = { authorization: `DPoP ${tokens.access_token}`, dpop: proof };
    const res = await slowPost(path, headers, body, async () => {
      const revoked = await fb.api(other.token).del(`/v1/me/tokens/${other.tokenId}`);
      expect(revoked.status).to.be.oneOf([200, 204]);
    });
    expect(res.status, res.text).to.equal(200);
  });
});
