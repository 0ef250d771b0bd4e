/**
 * Connected apps are each user's own (`GET /v1/me/apps`, `DELETE /v1/me/apps/{clientId}`): one
 * client connected by two people is two grants, and what one person does with theirs leaves the
 * other's alone; a grant that has ended is no connected app.
 */
import { expect } from 'chai';
import { authorizeOverHttp, CookieJar } from '../../auth/support/browserless.js';
import { exchange, registerClient, startAuthorization } from '../../auth/support/client.js';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('When two people connect the same app (e2e)', () => {
  let fb: FeedbackHarness;
  let max: Maker;
  let bea: Maker;

  before(async () => {
    fb = await startFeedback({});
    max = await fb.createMaker('max@acme.io');
    bea = await fb.createMaker('bea@acme.io');
  });
  after(() => fb.stop());

  /** `maker` signs the client in through the pages and consents; its tokens */
  async function connect(config: Awaited<ReturnType<typeof registerClient>>, maker: Maker) {
    const started = await startAuthorization(config, fb.url, 'openid');
    const callback = await authorizeOverHttp({
      authUrl: started.url,
      base: fb.url,
      email: maker.email,
      mailboxPath: fb.mailboxPath,
      jar: new CookieJar(),
    });
    return exchange(config, callback, started);
  }
  const products = (token: string, maker: Maker) =>
    fb.api(token).get(`/v1/workspaces/${maker.home.slug}/products`);
  const appsOf = async (maker: Maker) =>
    ((await fb.api(maker.token).get('/v1/me/apps')).body.apps as { clientId: string }[]).map(
      (app) => app.clientId,
    );

  it("disconnects only the person's own grant: the other person's tokens go on working", async () => {
    // spec (revoke_connected_app): "Revokes every grant you gave the client"
    const config = await registerClient(fb.url, { name: 'Shared Assistant' });
    const clientId = config.clientMetadata().client_id;
    const maxTokens = await connect(config, max);
    const beaTokens = await connect(config, bea);
    expect((await fb.api(bea.token).del(`/v1/me/apps/${clientId}`)).status).to.equal(204);
    expect((await products(beaTokens.access_token, bea)).status).to.equal(401);
    const stillMax = await products(maxTokens.access_token, max);
    expect(stillMax.status, JSON.stringify(stillMax.body)).to.equal(200);
    expect(await appsOf(max)).to.include(clientId);
  });

  // last: it moves the service's clock past every grant made before
  it('lists no app whose grant has ended (90 days without a refresh)', async () => {
    // spec (list_connected_apps): "OAuth clients holding a live grant from you"
    const config = await registerClient(fb.url, { name: 'Forgotten App' });
    await connect(config, max);
    const clientId = config.clientMetadata().client_id;
    expect(await appsOf(max)).to.include(clientId);
    fb.clock.advance(91 * DAY_MS);
    expect(await appsOf(max)).not.to.include(clientId);
  });
});
