/**
 * What clients get while the data file cannot grow (failure audit, disk full): a search
 * answered `500 internal` and a client registration `400 "the registration body is not valid
 * JSON"` — both because the read store's write (the search budget, the per-IP registration
 * count) failed with SQLITE_FULL. README (Operations): a store that cannot serve answers 503
 * with Retry-After (in the service's envelope; at the OAuth endpoints in the OAuth error shape,
 * test/auth/full-disk-answers.e2e.test.ts).
 *
 * The full disk is SQLite's own: the read store's connection may not grow the file
 * (`max_page_count`, test/support/full-disk.ts).
 */
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { fillDisk, freeDisk } from '../support/full-disk.js';

describe('When the data file cannot grow (disk full)', function () {
  this.timeout(30_000);
  let fb: FeedbackHarness;
  let token: string;
  before(async () => {
    fb = await startFeedback();
    const maker = await fb.createMaker('full@example.com');
    token = maker.token;
    const ws = await fb.createWorkspace(maker, { slug: 'full-disk', name: 'Full' });
    await fb.createProduct(ws, { key: 'FULL', name: 'Full' });
    fillDisk(fb.deps().readStore);
  });
  after(async () => {
    freeDisk(fb.deps().readStore);
    await fb.stop();
  });

  it('answers a search 503 with Retry-After in the envelope, not 500', async () => {
    const res = await fb
      .api(token)
      .get('/v1/workspaces/full-disk/products/FULL/items/search?q=dark');
    expect(res.status, JSON.stringify(res.body)).to.equal(503);
    expect(res.body.code).to.equal('resource-exhausted');
    expect(Number(res.headers.get('retry-after'))).to.be.at.least(1);
  });

  it('answers a client registration 503, not "the registration body is not valid JSON"', async () => {
    const res = await fetch(`${fb.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.10' },
      body: JSON.stringify({
        client_name: 'Full disk client',
        redirect_uris: ['http://127.0.0.1:9/cb'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const body = await res.text();
    expect(res.status, body).to.equal(503);
    expect(body).not.to.include('not valid JSON');
    expect(Number(res.headers.get('retry-after'))).to.be.at.least(1);
  });
});
