/**
 * The MCP endpoint is a resource of its own under the service (RFC 8707): a token issued for it
 * is kept to it (auth-discovery.e2e.test.ts), while a token for the whole service — what a
 * client that names no `resource` gets — is for the wider resource and works there too.
 */
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { connectClient } from '../feedback/support/oauth.js';
import { postToolsList } from './support.js';

describe('When a client holding a token for the whole feedback service calls its MCP endpoint', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  before(async () => {
    fb = await startFeedback();
    await fb.createMaker('max@acme.io');
  });
  after(() => fb?.stop());

  it('is served: the service is the wider resource, its endpoints included', async () => {
    // src/auth/resource-indicators.ts: "The service itself (its base URL) is the wider
    // resource: a token for the service is accepted at its endpoints too"
    const client = await connectClient(fb, { email: 'max@acme.io', name: 'REST Assistant' });
    expect(decodeJwt(client.accessToken).aud).to.equal(fb.url);
    const res = await postToolsList(`${fb.url}/mcp`, {
      authorization: `Bearer ${client.accessToken}`,
    });
    expect(res.status, await res.clone().text()).to.equal(200);
  });
});
