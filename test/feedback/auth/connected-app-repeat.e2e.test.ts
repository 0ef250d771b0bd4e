/**
 * Disconnecting an app twice (revoke_connected_app), over real HTTP with an app connected through
 * the real authorization-code flow: the answer to the first was lost and the client sends it
 * again, with or without its Idempotency-Key. README: a retry with the same `Idempotency-Key`
 * "returns the first result. That holds for every write — one that changed nothing too"; and as
 * revoking a revoked personal token is a no-op (revoke_api_token), a disconnect that finds the app
 * already disconnected answers 204. Only a client id no app has is 404.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';
import { connectClient } from '../support/oauth.js';

const APPS = '/v1/me/apps';

describe('When a disconnect of an app is sent again (e2e)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  let maker: Maker;
  const products = () => `/v1/workspaces/${maker.home.slug}/products`;
  const connectedIds = async () =>
    ((await fb.api(maker.token).get(APPS)).body.apps as { clientId: string }[]).map(
      (app) => app.clientId,
    );

  before(async () => {
    fb = await startFeedback();
    maker = await fb.createMaker('max@acme.io', 'laptop');
  });
  after(() => fb.stop());

  it('answers the repeat 204 as the first, and the app stays disconnected', async () => {
    const app = await connectClient(fb, { email: maker.email, name: 'Lost Answer' });
    const first = await fb.api(maker.token).del(`${APPS}/${app.clientId}`);
    expect(first.status, JSON.stringify(first.body)).to.equal(204);
    const again = await fb.api(maker.token).del(`${APPS}/${app.clientId}`);
    expect(again.status, JSON.stringify(again.body)).to.equal(204);
    expect(await connectedIds()).not.to.include(app.clientId);
    expect((await fb.api(app.accessToken).get(products())).status).to.equal(401);
  });

  it('answers a retry with the same Idempotency-Key as its first attempt: 204', async () => {
    const app = await connectClient(fb, { email: maker.email, name: 'Keyed Retry' });
    const headers = { 'idempotency-key': 'disconnect-keyed-retry' };
    const first = await fb.api(maker.token).del(`${APPS}/${app.clientId}`, { headers });
    const retry = await fb.api(maker.token).del(`${APPS}/${app.clientId}`, { headers });
    expect([first.status, retry.status], JSON.stringify(retry.body)).to.deep.equal([204, 204]);
  });

  it('answers 404 not-found for a client id no app has', async () => {
    const res = await fb.api(maker.token).del(`${APPS}/no-such-app`);
    expect(res.status, JSON.stringify(res.body)).to.equal(404);
    expect(res.body.code).to.equal('not-found');
  });
});
