/**
 * An MCP request is authenticated once, when its POST arrives; its tool calls run later (the
 * body still arriving, the calls of a batch one after another). README "Revocation": every tool
 * call checks the caller again, live, just before it acts, so a call after a revocation is
 * refused (`isError`, `_meta.status` 401, REST's envelope) and writes nothing — on both hosted
 * servers (src/http/lifecycle.ts CORE_STEPS, recheckCredential).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { oidc } from '../auth/support/client.js';
import { type FeedbackHarness, type Maker, startFeedback } from '../feedback/support/harness.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import { envelopeOf } from './support.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The SDK client whose next `tools/call` POST sends its headers and ten bytes, then waits for
 * `meanwhile` (given 300 ms for the headers to be authenticated) before the rest of its body.
 */
async function heldClient(url: string, token: string) {
  let meanwhile: (() => Promise<void>) | undefined;
  const fetchFn = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const body = init?.body;
    const hold = meanwhile;
    if (!hold || typeof body !== 'string' || !body.includes('"tools/call"')) {
      return fetch(input, init);
    }
    meanwhile = undefined;
    const bytes = new TextEncoder().encode(body);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 0) {
          sent = 10;
          controller.enqueue(bytes.slice(0, 10));
          return;
        }
        await sleep(300);
        await hold();
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    return fetch(input, { ...init, body: stream, duplex: 'half' } as RequestInit);
  };
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: fetchFn,
  });
  const client = new Client({ name: 'held-assistant', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    /** the next tool call's body waits for `run` */
    holdNextCall(run: () => Promise<void>) {
      meanwhile = run;
    },
  };
}

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

    it('refuses the tool call whose body arrived after the revocation: 401, nothing written', async () => {
      const { client, holdNextCall } = await heldClient(`${fb.url}/mcp`, maker.token);
      holdNextCall(async () => {
        const revoked = await fb.api(maker.token).del(`/v1/me/tokens/${maker.tokenId}`);
        expect(revoked.status).to.be.oneOf([200, 204]);
      });
      const result = await call(client, 'submit_feedback', {
        slug: maker.home.slug,
        key: 'APP',
        body: 'Sent by a token revoked meanwhile',
      });
      await client.close();
      expect(result._meta?.status, JSON.stringify(result)).to.equal(401);
      expect(envelopeOf(result).error).to.match(/revoked/);
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
      expect(await itemCount(), 'no item was written').to.equal(0);
    });
  });

  describe('When it is a notes access token revoked at /oauth/revoke', () => {
    let notes: NotesE2e;
    before(async () => {
      notes = await startNotesE2e();
    });
    after(() => notes.stop());

    it('refuses the tool call whose body arrived after the revocation: 401, no note', async () => {
      const { config, token } = await notes.signIn('ada@example.com', { scope: 'notes' });
      const { client, holdNextCall } = await heldClient(`${notes.base}/mcp`, token);
      holdNextCall(() => oidc.tokenRevocation(config, token));
      const result = await call(client, 'create_note', { content: 'Sent after the revocation' });
      await client.close();
      expect(result._meta?.status, JSON.stringify(result)).to.equal(401);
      const again = await notes.signIn('ada@example.com', { scope: 'notes' });
      const listed = await notes.api(again.token)('GET', '/v1/notes');
      expect(listed.body.notes, 'no note was created').to.have.length(0);
    });
  });
});
