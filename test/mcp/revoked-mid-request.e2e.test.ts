/**
 * An MCP request is authenticated once, when its POST arrives; its tool calls run later (the
 * body still arriving, the calls of a batch one after another). README "Revocation": every tool
 * call checks the caller again, live, just before it acts, so a call after a revocation writes
 * nothing — on both hosted servers (src/http/lifecycle.ts CORE_STEPS, recheckCredential).
 *
 * How it is refused (src/mcp/http.ts `checkedForCalls`): a POST whose credential stopped working
 * before any of it ran is answered as one refused on arrival — HTTP 401 with the endpoint's
 * `WWW-Authenticate` challenge, from which an MCP client re-authorises and sends it again (MCP
 * authorization 2025-06-18: "Invalid or expired tokens MUST receive a HTTP 401 response"), not
 * a tool result an OAuth client cannot act on. A call of a batch after one that ran is a tool
 * result (`_meta.status` 401) whose text tells the assistant the call did not run and what the
 * user must do: a 401 for the whole POST would lose the answer of the call that ran.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { oidc } from '../auth/support/client.js';
import { type FeedbackHarness, type Maker, startFeedback } from '../feedback/support/harness.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import { heldClient } from './held-client.js';
import { envelopeOf } from './support.js';

const call = async (
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> => (await client.callTool({ name, arguments: args })) as CallToolResult;

describe('When a credential is revoked while its MCP request is on its way (e2e)', function () {
  this.timeout(60_000);

  describe('When it is a feedback board personal token', () => {
    let fb: FeedbackHarness;
    let maker: Maker;
    before(async () => {
      fb = await startFeedback();
      maker = await fb.createMaker('max@acme.io');
      await fb.createProduct(maker.home, { key: 'APP', name: 'App', visibility: 'public' });
    });
    after(() => fb.stop());
    const itemCount = () =>
      fb.runtime.runtime.stores.readStore.collection('items').countDocuments({});

    it('answers the POST whose body arrived after the revocation HTTP 401 with the challenge, nothing written', async () => {
      const { client, answers, holdNextCall } = await heldClient(`${fb.url}/mcp`, {
        token: maker.token,
      });
      holdNextCall(async () => {
        const revoked = await fb.api(maker.token).del(`/v1/me/tokens/${maker.tokenId}`);
        expect(revoked.status).to.be.oneOf([200, 204]);
      });
      const refused = await call(client, 'submit_feedback', {
        slug: maker.home.slug,
        key: 'APP',
        body: 'Sent by a token revoked meanwhile',
      }).then(
        (result) => result,
        (error: unknown) => error as { code?: number },
      );
      await client.close();
      // what an MCP client re-authorises from, not a tool result it cannot act on
      expect((refused as { code?: number }).code, JSON.stringify(refused)).to.equal(401);
      expect(answers.at(-1)).to.deep.equal({
        url: `${fb.url}/mcp`,
        status: 401,
        challenge: `Bearer resource_metadata="${fb.url}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`,
      });
      expect(await itemCount(), 'no item was written').to.equal(0);
    });

    it('refuses the calls of a batch after the one that revoked its own token', async () => {
      // a client of revision 2025-03-26 may batch; the batch was authenticated once
      const other = await fb.createMaker('ida@acme.io');
      const batch = [
        { name: 'revoke_api_token', arguments: { tokenId: other.tokenId } },
        {
          name: 'submit_feedback',
          arguments: { slug: maker.home.slug, key: 'APP', body: 'Sent after the revocation' },
        },
      ].map((params, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params }));
      const res = await fetch(`${fb.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${other.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(batch),
      });
      expect(res.status).to.equal(200);
      const answers = (await res.json()) as { id: number; result: CallToolResult }[];
      const byId = new Map(answers.map((a) => [a.id, a.result]));
      expect(byId.get(1)?.isError, JSON.stringify(byId.get(1))).to.not.equal(true);
      expect(byId.get(2)?._meta?.status, JSON.stringify(byId.get(2))).to.equal(401);
      // the assistant reads the text as its instructions: what happened, what the user must do
      const { error, code } = envelopeOf(byId.get(2)!);
      expect(code).to.equal('unauthenticated');
      expect(error)
        .to.match(/^API token revoked: this call did not run/)
        .and.to.include('the MCP client needs a new credential')
        .and.to.include('Then call the tool again');
      expect(await itemCount(), 'no item was written').to.equal(0);
    });
  });

  describe('When it is a notes access token revoked at /oauth/revoke', () => {
    let notes: NotesE2e;
    before(async () => {
      notes = await startNotesE2e();
    });
    after(() => notes.stop());

    it('answers the POST whose body arrived after the revocation HTTP 401 with the challenge, no note', async () => {
      const { config, token } = await notes.signIn('ada@example.com', { scope: 'notes' });
      const { client, answers, holdNextCall } = await heldClient(`${notes.base}/mcp`, { token });
      holdNextCall(() => oidc.tokenRevocation(config, token));
      const refused = await call(client, 'create_note', {
        content: 'Sent after the revocation',
      }).then(
        (result) => result,
        (error: unknown) => error as { code?: number },
      );
      await client.close();
      expect((refused as { code?: number }).code, JSON.stringify(refused)).to.equal(401);
      expect(answers.at(-1)?.status).to.equal(401);
      expect(answers.at(-1)?.challenge).to.match(
        /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp", error="invalid_token"/,
      );
      const again = await notes.signIn('ada@example.com', { scope: 'notes' });
      const listed = await notes.api(again.token)('GET', '/v1/notes');
      expect(listed.body.notes, 'no note was created').to.have.length(0);
    });
  });
});
