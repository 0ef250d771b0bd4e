/**
 * A feedback request whose If-Match lists no entity tag, over real HTTP: 400 invalid-argument
 * naming what was sent, before anything runs, as on the notes service (RFC 9110 §13.1.1:
 * `If-Match = "*" / #entity-tag`; src/http/if-match-syntax.ts). A well-formed tag still answers
 * 412 "this resource carries no ETag" (if-match-without-etag.e2e.test.ts).
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';

describe('When a feedback request carries an If-Match that lists no entity tag (e2e)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  let owner: Maker;
  let item: string;
  const api = () => fb.api(owner.token);

  before(async () => {
    fb = await startFeedback();
    owner = await fb.createMaker('max@acme.io');
    await fb.createProduct(owner.home, { key: 'APP', name: 'App', visibility: 'public' });
    const { itemKey } = await fb.submit(owner.home, 'APP', { body: 'Dark mode please' });
    item = `/v1/workspaces/${owner.home.slug}/products/APP/items/${itemKey}`;
  });
  after(() => fb.stop());

  it('answers 400 invalid-argument naming the value, and changes nothing', async () => {
    for (const ifMatch of ['garbage', 'W/x']) {
      const headers = { 'if-match': ifMatch };
      const refused = await api().post(`${item}/status`, { status: 'planned' }, { headers });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(400);
      expect(refused.body).to.deep.equal({
        error: `If-Match ${ifMatch} holds no entity tag (RFC 9110 §8.8.3: each in double quotes, "3" or W/"3", comma-separated, or the field is *); this resource carries no ETag: send the request without If-Match`,
        code: 'invalid-argument',
      });
      const read = await api().get(item, { headers });
      expect(read.status).to.equal(400);
    }
    expect((await api().get(item)).body.item.status).to.equal('new');
    // a well-formed tag is a tag, one this item does not carry: still 412
    const headers = { 'if-match': '"999"' };
    const refused = await api().post(`${item}/status`, { status: 'planned' }, { headers });
    expect(refused.status).to.equal(412);
  });
});
