/**
 * A credential revoked while its request is still on its way does not act: README "a revocation
 * applies to the very next request" would otherwise leave out the one whose body was still being
 * sent. The request was authenticated when its headers arrived; the revocation that lands before
 * its body is whole moves the process's count of revocations, and the step before the handler
 * authenticates it again (src/http/lifecycle.ts recheckCredential).
 */
import http from 'node:http';
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';

describe('When a personal token is revoked while its request body is still being sent (e2e)', () => {
  let fb: FeedbackHarness;
  let maker: Maker;

  before(async () => {
    fb = await startFeedback();
    maker = await fb.createMaker('max@acme.io');
    await fb.createProduct(maker.home, { key: 'APP', name: 'App', visibility: 'public' });
  });
  after(() => fb.stop());

  it('answers 401 and writes nothing', async () => {
    const body = JSON.stringify({ body: 'Sent by a token revoked meanwhile' });
    const url = new URL(`/v1/public/${maker.home.slug}/APP/feedback`, fb.url);
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${maker.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      // the headers are in: authenticated; the rest of the body follows the revocation
      setTimeout(() => {
        fb.api(maker.token)
          .del(`/v1/me/tokens/${maker.tokenId}`)
          .then((revoked) => {
            expect(revoked.status).to.be.oneOf([200, 204]);
            req.end(body.slice(10));
          })
          .catch(reject);
      }, 300);
    });
    const res = await answered;
    expect(res.status, res.text).to.equal(401);
    const items = await fb.runtime.runtime.stores.readStore.collection('items').countDocuments({});
    expect(items, 'no item was written').to.equal(0);
  });
});
