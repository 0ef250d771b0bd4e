/**
 * If-None-Match on feedback writes, none of whose resources carries an ETag, over real HTTP.
 * RFC 9110 §13.1.2: "If the field value is "*", the condition is false if the origin server has a
 * current representation for the target resource. If the field value is a list of entity tags,
 * the condition is false if one of the listed tags matches the entity tag of the selected
 * representation", and "An origin server MUST NOT perform the requested method if the condition
 * evaluates to false; instead, the origin server MUST respond with ... the 412 (Precondition
 * Failed) status code for all other request methods" (other than GET and HEAD). An item exists,
 * and a create's target is the collection it adds to, which exists: `*` is refused; a listed tag
 * can never match a resource without one, so a list holds. §13.2.1: a missing item answers 404.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';

const PRODUCT = 'APP';
const REFUSAL =
  'this resource exists, so If-None-Match * cannot hold (RFC 9110 §13.1.2; the resource of a create is the collection it adds to); send the request without If-None-Match';

describe('When a feedback write carries If-None-Match (e2e)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  let owner: Maker;
  let items: string;
  let item: string;
  const api = () => fb.api(owner.token);
  const ifNoneMatch = (value: string, more: Record<string, string> = {}) => ({
    headers: { 'if-none-match': value, ...more },
  });

  before(async () => {
    fb = await startFeedback({
      env: {
        CAPTURE_PERSON_BURST: '2',
        CAPTURE_PERSON_PER_HOUR: '1',
        CAPTURE_PRODUCT_BURST: '2',
        CAPTURE_PRODUCT_PER_HOUR: '1',
      },
    });
    owner = await fb.createMaker('max@acme.io');
    await fb.createProduct(owner.home, { key: PRODUCT, name: 'App', visibility: 'public' });
    const { itemKey } = await fb.submit(owner.home, PRODUCT, { body: 'Dark mode please' });
    items = `/v1/workspaces/${owner.home.slug}/products/${PRODUCT}/items`;
    item = `${items}/${itemKey}`;
  });
  after(() => fb.stop());

  const read = async (path = item) => (await api().get(path)).body.item;

  it('refuses update_item_status under If-None-Match: * with 412 failed-precondition and changes nothing; a missing item still answers 404', async () => {
    const missing = await api().post(
      `${items}/APP-999/status`,
      { status: 'planned' },
      ifNoneMatch('*'),
    );
    expect(missing.status, JSON.stringify(missing.body)).to.equal(404);
    const refused = await api().post(`${item}/status`, { status: 'planned' }, ifNoneMatch('*'));
    expect(refused.status, JSON.stringify(refused.body)).to.equal(412);
    expect(refused.body).to.deep.equal({ error: REFUSAL, code: 'failed-precondition' });
    expect((await read()).status).to.equal('new');
  });

  it('refuses a PATCH of the item (update_item) under If-None-Match: *, and the item keeps its title', async () => {
    const refused = await api().patch(item, { title: 'Lost check' }, ifNoneMatch('*'));
    expect(refused.status, JSON.stringify(refused.body)).to.equal(412);
    expect((await read()).title).to.not.equal('Lost check');
  });

  it('evaluates If-None-Match after an If-Match that holds (RFC 9110 §13.2.2): If-Match * and If-None-Match * answer 412', async () => {
    const refused = await api().post(
      `${item}/status`,
      { status: 'planned' },
      ifNoneMatch('*', { 'if-match': '*' }),
    );
    expect(refused.status, JSON.stringify(refused.body)).to.equal(412);
    expect(refused.body.error).to.equal(REFUSAL);
    expect((await read()).status).to.equal('new');
  });

  it("refuses submit_feedback under If-None-Match: * spending no item number and none of an outsider's submissions; a list of tags (none can match) files it", async () => {
    const outsider = fb.api((await fb.createMaker('someone@else.io')).token);
    const feedback = `/v1/public/${owner.home.slug}/${PRODUCT}/feedback`;
    for (let i = 0; i < 3; i++) {
      const refused = await outsider.post(feedback, { body: `Only if new ${i}` }, ifNoneMatch('*'));
      expect(refused.status, JSON.stringify(refused.body)).to.equal(412);
      expect(refused.body.error).to.equal(REFUSAL);
    }
    // the whole burst (2 from the caller, 2 into the product) is still there, and the first
    // item is APP-1: the refused submissions took no number
    const keys = [];
    for (const tags of ['"1", W/"2"', '"3"']) {
      const filed = await outsider.post(feedback, { body: `Export ${tags}` }, ifNoneMatch(tags));
      expect(filed.status, JSON.stringify(filed.body)).to.equal(200);
      keys.push(filed.body.itemId);
    }
    expect(keys).to.deep.equal(['APP-2', 'APP-3']);
  });

  it('keeps nothing of a refused request under its Idempotency-Key: the same key without the header writes', async () => {
    const key = { 'idempotency-key': 'inm-retry-1' };
    const refused = await api().post(
      `${item}/status`,
      { status: 'planned' },
      ifNoneMatch('*', key),
    );
    expect(refused.status, JSON.stringify(refused.body)).to.equal(412);
    const done = await api().post(`${item}/status`, { status: 'planned' }, { headers: key });
    expect(done.status, JSON.stringify(done.body)).to.equal(200);
    expect(done.body).to.deep.equal({ status: 'planned', changed: true });
  });
});
