/**
 * A search of a product that does not exist, over real HTTP. RFC 9110 §13.2.1: "A server MUST
 * ignore all received preconditions if its response to the same request without those
 * conditions, prior to processing the request content, would have been a status code other than
 * a 2xx (Successful) or 412" — without its If-Match the search answers 404, so it does with one.
 * Only the product's existence is read (the operation's `scope`): nothing of the caller's search
 * budget (README: SEARCHES_PER_CALLER_BURST) is spent on it.
 */
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';

const NOT_A_TAG = { 'if-match': '"abc"' };

describe('When a search names a product the workspace does not have (e2e)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  let get: (
    path: string,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; body: unknown }>;
  before(async () => {
    fb = await startFeedback({
      env: { SEARCHES_PER_CALLER_BURST: '2', SEARCHES_PER_CALLER_PER_HOUR: '1' },
    });
    const owner = await fb.createMaker('owner@acme.io', 'laptop');
    const ws = await fb.createWorkspace(owner, { slug: 'acme-co', name: 'Acme' });
    await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
    get = (path, headers = {}) =>
      fb.api(owner.token).get(`/v1/workspaces/acme-co${path}`, { headers });
  });
  after(() => fb.stop());

  it('answers 404 under an If-Match that cannot hold (not 412), for search_items and summarize_feedback, spending no search', async () => {
    for (const path of ['/products/NOPE/items/search?q=dark', '/products/NOPE/summary?q=dark']) {
      for (const headers of [NOT_A_TAG, {}, NOT_A_TAG]) {
        const res = await get(path, headers);
        expect(res.status, `${path} ${JSON.stringify(res.body)}`).to.equal(404);
        expect(res.body).to.deep.equal({ error: 'product not found', code: 'not-found' });
      }
    }
    // the whole burst is still there: six 404s took none of it
    expect((await get('/products/APP/items/search?q=dark')).status).to.equal(200);
    expect((await get('/products/APP/summary?q=dark')).status).to.equal(200);
    expect((await get('/products/APP/items/search?q=dark')).status).to.equal(429);
  });
});
