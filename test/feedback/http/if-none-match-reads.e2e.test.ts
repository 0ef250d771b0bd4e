/**
 * If-None-Match on feedback reads, none of which carries an ETag, over real HTTP. RFC 9110
 * §13.1.2: "If the field value is "*", the condition is false if the origin server has a current
 * representation for the target resource", and "if the condition evaluates to false ... the
 * origin server MUST respond with either a) the 304 (Not Modified) status code if the request
 * method is GET or HEAD". An item that exists is such a representation, ETag or none; a listed
 * tag can never match a resource without one, so a list answers 200. §13.2.1: a missing item
 * answers 404. §15.4.5: the 304 carries the Cache-Control, Vary and ETag the 200 would, and no body.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';

const PRODUCT = 'APP';
const CACHE_FIELDS = ['cache-control', 'vary', 'etag', 'content-location', 'expires'];

describe('When a feedback read carries If-None-Match (e2e)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  let owner: Maker;
  let items: string;
  let item: string;

  before(async () => {
    fb = await startFeedback();
    owner = await fb.createMaker('max@acme.io');
    await fb.createProduct(owner.home, { key: PRODUCT, name: 'App', visibility: 'public' });
    const { itemKey } = await fb.submit(owner.home, PRODUCT, { body: 'Dark mode please' });
    items = `/v1/workspaces/${owner.home.slug}/products/${PRODUCT}/items`;
    item = `${items}/${itemKey}`;
  });
  after(() => fb.stop());

  const send = (method: string, path: string, ifNoneMatch?: string) =>
    fetch(`${fb.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${owner.token}`,
        ...(ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch }),
      },
    });
  const cacheFields = (res: Response) => CACHE_FIELDS.map((name) => res.headers.get(name));

  it('answers GET and HEAD of an existing item and of its list under If-None-Match: * with 304, no body, and the 200’s cache headers', async () => {
    for (const path of [item, items]) {
      const full = await send('GET', path);
      expect(full.status, path).to.equal(200);
      for (const method of ['GET', 'HEAD']) {
        const res = await send(method, path, '*');
        expect(res.status, `${method} ${path}`).to.equal(304);
        expect(await res.text(), `${method} ${path}`).to.equal('');
        expect(cacheFields(res), `${method} ${path}`).to.deep.equal(cacheFields(full));
      }
    }
  });

  it('answers a missing item 404 under If-None-Match: *, not 304', async () => {
    const res = await send('GET', `${items}/APP-999`, '*');
    expect(res.status).to.equal(404);
    expect((await res.json()).code).to.equal('not-found');
  });

  it('answers 200 with the item when If-None-Match lists tags, none of which can match', async () => {
    const res = await send('GET', item, '"1", W/"2"');
    expect(res.status).to.equal(200);
    expect((await res.json()).item.body).to.equal('Dark mode please');
  });
});
