/**
 * If-Match on feedback operations, none of which carries an ETag, over real HTTP. RFC 9110
 * §13.1.1: "If the field value is a list of entity tags, the condition is true if any of the
 * listed tags match the entity tag of the selected representation", and "An origin server MUST
 * NOT perform the requested method if a received If-Match condition evaluates to false". A
 * resource without an entity tag matches no listed tag: only `*` holds. README: "Any other
 * operation (…) carries no ETag: an `If-Match` other than `*` cannot hold (…) and the request is
 * refused with 412, for reads as for writes, but only when it would otherwise have succeeded"
 * (which answer wins when it would not: if-match-precedence.e2e.test.ts).
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';

const PRODUCT = 'APP';

describe('When a feedback request carries If-Match (e2e)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  let owner: Maker;
  let item: string;
  const api = () => fb.api(owner.token);
  const ifMatch = (value: string) => ({ headers: { 'if-match': value } });

  before(async () => {
    fb = await startFeedback();
    owner = await fb.createMaker('max@acme.io');
    await fb.createProduct(owner.home, { key: PRODUCT, name: 'App', visibility: 'public' });
    const { itemKey } = await fb.submit(owner.home, PRODUCT, { body: 'Dark mode please' });
    item = `/v1/workspaces/${owner.home.slug}/products/${PRODUCT}/items/${itemKey}`;
  });
  after(() => fb.stop());

  const statusNow = async () => (await api().get(item)).body.item.status;

  it('refuses update_item_status with a tag 412 failed-precondition, naming the tag, and changes nothing', async () => {
    const refused = await api().post(`${item}/status`, { status: 'planned' }, ifMatch('"999"'));
    expect(refused.status, JSON.stringify(refused.body)).to.equal(412);
    expect(refused.body).to.deep.equal({
      error:
        'this resource carries no ETag, so If-Match "999" cannot match (RFC 9110 §13.1.1); send the request without If-Match',
      code: 'failed-precondition',
    });
    expect(await statusNow()).to.equal('new');
  });

  it('refuses a PATCH of the item (update_item) with a tag, and the item keeps its title', async () => {
    const refused = await api().patch(item, { title: 'Lost update' }, ifMatch('"3"'));
    expect(refused.status, JSON.stringify(refused.body)).to.equal(412);
    expect((await api().get(item)).body.item.title).to.not.equal('Lost update');
  });

  it('refuses a list of tags: none of them can match', async () => {
    const refused = await api().post(
      `${item}/status`,
      { status: 'planned' },
      ifMatch('"1", "2", W/"3"'),
    );
    expect(refused.status).to.equal(412);
    expect(refused.body.error).to.contain('If-Match "1", "2", W/"3" cannot match');
    expect(await statusNow()).to.equal('new');
  });

  it('refuses a GET (get_item) with a tag too: the RFC evaluates If-Match for any method', async () => {
    const refused = await api().get(item, ifMatch('"1"'));
    expect(refused.status).to.equal(412);
    expect(refused.body.code).to.equal('failed-precondition');
  });

  it('names a long If-Match cut to 64 characters', async () => {
    const long = `"${'a'.repeat(300)}"`;
    const refused = await api().get(item, ifMatch(long));
    expect(refused.status).to.equal(412);
    expect(refused.body.error).to.contain(`If-Match ${long.slice(0, 64)}… cannot match`);
    expect(refused.body.error.length).to.be.lessThan(200);
  });

  it('performs the request under If-Match: * (the item exists), as without the header', async () => {
    const { itemKey } = await fb.submit(owner.home, PRODUCT, { body: 'Export to CSV' });
    const other = item.replace(/[^/]+$/, itemKey);
    const set = await api().post(`${other}/status`, { status: 'planned' }, ifMatch('*'));
    expect(set.status, JSON.stringify(set.body)).to.equal(200);
    expect(set.body).to.deep.equal({ status: 'planned', changed: true });
    expect((await api().get(other, ifMatch('*'))).status).to.equal(200);
  });

  it('answers 404 for a missing item under If-Match: * (RFC 9110 §13.2.1: the answer without the precondition wins)', async () => {
    const missing = item.replace(/items\/[^/]+$/, 'items/APP-999');
    const res = await api().post(`${missing}/status`, { status: 'planned' }, ifMatch('*'));
    expect(res.status).to.equal(404);
    expect(res.body.code).to.equal('not-found');
  });

  it('answers 401 before 412: a refusal without the precondition takes precedence (RFC 9110 §13.2.1)', async () => {
    const res = await fb.api('not-a-token').get(item, ifMatch('"1"'));
    expect(res.status).to.equal(401);
  });
});
