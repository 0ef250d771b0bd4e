/**
 * submit_feedback from someone outside the workspace (the public's rate buckets apply) under an
 * If-Match that cannot hold, over real HTTP. RFC 9110 §13.1.1: the server "MUST NOT perform the
 * requested method if a received If-Match condition evaluates to false" — a 412 files nothing,
 * so it spends none of the submissions the caller and the product may send (as a search refused
 * 412 spends no search); §13.2.1: preconditions are ignored when the answer without them "would
 * have been a status code other than a 2xx ... or 412" — a missing board answers 404, a spent
 * bucket 429.
 */
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../support/harness.js';

const NOT_A_TAG = { 'if-match': '"abc"' };
const FEEDBACK = '/v1/public/tight-co/APP/feedback';

describe('When someone outside the workspace submits feedback with an If-Match that cannot hold (e2e)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  let owner: string;
  let outsider: string;
  const itemCount = async () =>
    (await fb.api(owner).get('/v1/workspaces/tight-co/products/APP/items')).body.items.length;
  before(async () => {
    fb = await startFeedback({
      env: {
        CAPTURE_PERSON_BURST: '2',
        CAPTURE_PERSON_PER_HOUR: '1',
        CAPTURE_PRODUCT_BURST: '2',
        CAPTURE_PRODUCT_PER_HOUR: '1',
      },
    });
    const maker = await fb.createMaker('owner@tight.io');
    owner = maker.token;
    const ws = await fb.createWorkspace(maker, { slug: 'tight-co', name: 'Tight' });
    await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
    outsider = (await fb.createMaker('someone@else.io')).token;
  });
  after(() => fb.stop());

  it('answers a missing board 404, not 412', async () => {
    const res = await fb
      .api(outsider)
      .post('/v1/public/tight-co/NOPE/feedback', { body: 'hello' }, { headers: NOT_A_TAG });
    expect(res.status, JSON.stringify(res.body)).to.equal(404);
  });

  it('answers 412 filing nothing and spending no submission; a spent bucket answers 429 first', async () => {
    for (let i = 0; i < 3; i++) {
      const refused = await fb
        .api(outsider)
        .post(FEEDBACK, { body: `refused ${i}` }, { headers: NOT_A_TAG });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(412);
      expect(refused.body.code).to.equal('failed-precondition');
    }
    expect(await itemCount()).to.equal(0);
    // the whole burst (2 from the caller, 2 into the product) is still there
    for (let i = 0; i < 2; i++) {
      const filed = await fb.api(outsider).post(FEEDBACK, { body: `filed ${i}` });
      expect(filed.status, JSON.stringify(filed.body)).to.equal(200);
    }
    const spent = await fb.api(outsider).post(FEEDBACK, { body: 'late' }, { headers: NOT_A_TAG });
    expect(spent.status, JSON.stringify(spent.body)).to.equal(429);
    expect(await itemCount()).to.equal(2);
  });
});
