/**
 * README "Revocation": "With several API processes the revocation is seen by every one of them
 * from the moment it is answered: the embedded store's processes read the shared log before each
 * check". Two API apps over one embedded data file (SHARED_DATA_DIR), in this process: a personal
 * token revoked through A while a write of it is on its way to B. B polls the log only every
 * EMBEDDED_POLL_MS when idle (here ten minutes), so only checking the credential again, live,
 * before the write acts keeps the write from landing.
 */
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../feedback/support/harness.js';
import { slowPost } from '../support/slow-body.js';
import { tempDir } from '../support/stores.js';

describe('When a token is revoked through one API process while its write is on its way to another (e2e)', function () {
  this.timeout(60_000);
  const dir = tempDir('revoked-across-');
  const env = { DATA_DIR: dir, SHARED_DATA_DIR: 'true', EMBEDDED_POLL_MS: '600000' };
  let a: FeedbackHarness;
  let b: FeedbackHarness;
  let maker: Maker;
  let spare: string;

  before(async () => {
    a = await startFeedback({ env });
    maker = await a.createMaker('max@acme.io');
    await a.createProduct(maker.home, { key: 'APP', name: 'App', visibility: 'public' });
    spare = (await a.createToken(maker.userId, { name: 'spare' })).token;
    b = await startFeedback({ env });
  });
  after(async () => {
    await b?.stop();
    await a?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 401 on the other process and writes nothing', async () => {
    const path = `/v1/public/${maker.home.slug}/APP/feedback`;
    const body = JSON.stringify({ body: 'Sent to B by a token A revoked meanwhile' });
    const res = await slowPost(
      `${b.url}${path}`,
      { authorization: `Bearer ${maker.token}` },
      body,
      async () => {
        const revoked = await a.api(maker.token).del(`/v1/me/tokens/${maker.tokenId}`);
        expect(revoked.status).to.be.oneOf([200, 204]);
      },
    );
    expect(res.status, res.text).to.equal(401);
    const items = await a.api(spare).get(`/v1/workspaces/${maker.home.slug}/products/APP/items`);
    expect(items.status, JSON.stringify(items.body)).to.equal(200);
    expect(items.body.items, 'no item was written').to.have.length(0);
  });
});
