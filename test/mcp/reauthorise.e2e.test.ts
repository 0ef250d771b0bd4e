/**
 * An assistant signed in with OAuth whose access token is revoked while its tool call is on its
 * way: the POST is answered HTTP 401 with the endpoint's challenge (src/mcp/http.ts
 * `checkedForCalls`), so the official SDK client does what the MCP authorization spec has it do
 * on a 401 — authorise again (here with its refresh token, no user needed) and send the same
 * POST again — and the call runs once. MCP authorization 2025-06-18: "Invalid or expired tokens
 * MUST receive a HTTP 401 response"; the client "MUST" start authorization from the
 * `WWW-Authenticate` it names. A tool result with `_meta.status` 401 had left the assistant with
 * a dead token and a user to ask.
 */
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { heldClient } from './held-client.js';
import { connectFromNothing } from './oauth-client.js';
import { callTool } from './support.js';

describe('When an OAuth assistant’s access token is revoked mid-call (e2e)', function () {
  this.timeout(120_000);
  let fb: FeedbackHarness;
  before(async () => {
    fb = await startFeedback();
  });
  after(() => fb?.stop());

  it('the SDK client authorises again from the 401 and its call runs once', async () => {
    const owner = await fb.createMaker('max@acme.io');
    await fb.createProduct(owner.home, { key: 'APP', name: 'App', visibility: 'public' });
    const signedIn = await connectFromNothing({
      base: fb.url,
      email: owner.email,
      mailboxPath: fb.mailboxPath,
      clientName: 'Desktop Assistant',
    });
    await signedIn.client.close();
    const { provider } = signedIn;
    const revokedToken = provider.tokens()!.access_token;
    expect(provider.tokens()?.refresh_token, 'offline_access gave a refresh token').to.be.a(
      'string',
    );
    const { client, answers, holdNextCall } = await heldClient(`${fb.url}/mcp`, {
      authProvider: provider,
    });
    holdNextCall(async () => {
      const res = await fetch(`${fb.url}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          token: revokedToken,
          token_type_hint: 'access_token',
          client_id: provider.clientInformation()!.client_id,
        }),
      });
      expect(res.status).to.equal(200);
    });
    try {
      const result = await callTool({ client } as never, 'reply_to_item', {
        slug: owner.home.slug,
        key: 'APP',
        itemKey: (await fb.submit(owner.home, 'APP', { body: 'Dark mode please' })).itemKey,
        body: 'On our list',
      });
      expect(result.isError, JSON.stringify(result)).to.not.equal(true);
      const visited = answers.map((a) => `${new URL(a.url).pathname} ${a.status}`);
      const refused = visited.indexOf('/mcp 401');
      expect(refused, visited.join(', ')).to.be.at.least(0);
      // after the 401: discovery from the challenge, the refresh, the same POST again
      expect(visited.slice(refused).filter((v) => !v.startsWith('/.well-known/'))).to.deep.equal([
        '/mcp 401',
        '/oauth/token 200',
        '/mcp 200',
      ]);
      expect(provider.tokens()!.access_token).to.not.equal(revokedToken);
      const replies = await fb.runtime.runtime.stores.readStore
        .collection('replies')
        .countDocuments({});
      expect(replies, 'the reply was written once').to.equal(1);
    } finally {
      await client.close();
    }
  });
});
