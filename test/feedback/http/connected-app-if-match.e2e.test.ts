/**
 * Disconnecting an app (revoke_connected_app) under an If-Match that cannot hold, over real HTTP
 * with an app connected through the real authorization-code flow. The revocation is written
 * outside the event log, so the handler itself honours the refusal. RFC 9110 §13.1.1: "An origin
 * server MUST NOT perform the requested method if a received If-Match condition evaluates to
 * false"; §13.2.1: preconditions are ignored when the answer without them "would have been a
 * status code other than a 2xx (Successful) or 412" — a client id no app has answers 404.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';
import { type ConnectedClient, connectClient } from '../support/oauth.js';

const APPS = '/v1/me/apps';
const NOT_A_TAG = { 'if-match': '"abc"' };

describe('When an app is disconnected with an If-Match that cannot hold (e2e)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  let maker: Maker;
  let app: ConnectedClient;
  const products = () => `/v1/workspaces/${maker.home.slug}/products`;

  before(async () => {
    fb = await startFeedback();
    maker = await fb.createMaker('max@acme.io', 'laptop');
    app = await connectClient(fb, { email: maker.email, name: 'Kept App' });
  });
  after(() => fb.stop());

  it('answers 412 and leaves the app connected, its access token working', async () => {
    const res = await fb.api(maker.token).del(`${APPS}/${app.clientId}`, { headers: NOT_A_TAG });
    expect(res.status, JSON.stringify(res.body)).to.equal(412);
    expect(res.body.code).to.equal('failed-precondition');
    const listed = (await fb.api(maker.token).get(APPS)).body.apps;
    expect(listed.map((a: { clientId: string }) => a.clientId)).to.include(app.clientId);
    expect((await fb.api(app.accessToken).get(products())).status).to.equal(200);
  });

  it('answers 404 for a client id no app has, not 412', async () => {
    const res = await fb.api(maker.token).del(`${APPS}/never-connected`, { headers: NOT_A_TAG });
    expect(res.status, JSON.stringify(res.body)).to.equal(404);
    expect(res.body.code).to.equal('not-found');
  });

  it('disconnects it with If-Match *, which holds for any existing resource', async () => {
    const res = await fb.api(maker.token).del(`${APPS}/${app.clientId}`, {
      headers: { 'if-match': '*' },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(204);
    expect((await fb.api(app.accessToken).get(products())).status).to.equal(401);
  });
});
