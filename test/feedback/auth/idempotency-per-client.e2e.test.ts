/**
 * An Idempotency-Key belongs to the client that sent it, not only to the person behind it: a
 * maker's personal token and each OAuth app they connected are different clients, which pick
 * their keys without knowing of each other. The same key from two of them is two requests —
 * neither is refused as "a different request with the same key" (409) nor answered with the
 * other's stored result (src/write/batch.ts clientKey).
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';
import { connectClient } from '../support/oauth.js';

describe('When a personal token and an OAuth app of one maker send the same Idempotency-Key (e2e)', () => {
  let fb: FeedbackHarness;
  let maker: Maker;
  let appToken: string;
  let otherAppToken: string;
  const keyed = { headers: { 'idempotency-key': 'retry-42' } };

  before(async () => {
    fb = await startFeedback();
    maker = await fb.createMaker('max@acme.io');
    await fb.createProduct(maker.home, { key: 'APP', name: 'App', visibility: 'public' });
    ({ accessToken: appToken } = await connectClient(fb, { email: 'max@acme.io', name: 'One' }));
    ({ accessToken: otherAppToken } = await connectClient(fb, {
      email: 'max@acme.io',
      name: 'Two',
    }));
  });
  after(() => fb.stop());

  it('both act, on their own bodies, and each retry gets its own first answer', async () => {
    const path = `/v1/public/${maker.home.slug}/APP/feedback`;
    const byToken = await fb.api(maker.token).post(path, { body: 'From the laptop' }, keyed);
    const byApp = await fb.api(appToken).post(path, { body: 'From the assistant' }, keyed);
    const byOtherApp = await fb.api(otherAppToken).post(path, { body: 'From the CLI' }, keyed);
    for (const res of [byToken, byApp, byOtherApp])
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const ids = [byToken, byApp, byOtherApp].map((res) => res.body.itemId);
    expect(new Set(ids).size, 'three items, none the answer stored for another client').to.equal(3);
    const read = (id: string) =>
      fb.api(maker.token).get(`/v1/workspaces/${maker.home.slug}/products/APP/items/${id}`);
    expect((await read(byApp.body.itemId)).body.item.body).to.equal('From the assistant');
    // within one client the key still means "the same request again"
    const retried = await fb.api(appToken).post(path, { body: 'From the assistant' }, keyed);
    expect(retried.status).to.equal(200);
    expect(retried.body.itemId).to.equal(byApp.body.itemId);
    const reused = await fb.api(appToken).post(path, { body: 'Another thing' }, keyed);
    expect(reused.status).to.equal(409);
  });
});
