/**
 * who_needs_followup declares no 400 (spec Errors: "resolve_item and who_needs_followup declare
 * 401, 403, 404 (no 400)"), so nothing a client sends it may be answered 400: it takes no query,
 * so a query parameter changes nothing, and a slug that cannot name a workspace is a 404. In the
 * real feedback service, so its own path-parameter rule is the one exercised.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';

describe('When who_needs_followup is called with what it does not take', () => {
  let fb: FeedbackHarness;
  let owner: Maker;
  before(async () => {
    fb = await startFeedback();
    owner = await fb.createMaker('max@acme.io');
    await fb.createProduct(owner.home, { key: 'APP', name: 'App' });
    await fb.submit(owner.home, 'APP', { body: 'Dark mode', email: 'ada@x.io' });
  });
  after(() => fb.stop());

  it('answers the follow-up lists to a query parameter, never an undeclared 400', async () => {
    const path = `/v1/workspaces/${owner.home.slug}/followup`;
    const plain = await fb.api(owner.token).get(path);
    expect(plain.status).to.equal(200);
    for (const query of ['status=shipped', 'cursor=abc', 'x[]=1', 'pageSize=0&pageSize=1']) {
      const res = await fb.api(owner.token).get(`${path}?${query}`);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).to.equal(200);
      expect(res.body, query).to.deep.equal(plain.body);
    }
  });

  it('answers 404 not-found, as for an unknown workspace, to a malformed slug', async () => {
    const unknown = await fb.api(owner.token).get('/v1/workspaces/nope-nope/followup');
    const res = await fb.api(owner.token).get('/v1/workspaces/NOT_A_SLUG/followup');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal(unknown.body);
  });
});
