/**
 * The MCP authorization flow from nothing: an MCP client with no token calls the hosted
 * endpoint, gets a 401 naming the endpoint's protected-resource metadata, discovers the
 * authorization server from it, registers itself (DCR), signs the user in with PKCE asking for
 * a token for the MCP endpoint (RFC 8707 `resource`), and calls a tool — driven by the official
 * SDK's OAuth client support; only the sign-in pages are driven by the test, over HTTP.
 *
 * Issue 16: "An MCP client that starts with no token must be able to discover, register (DCR),
 * sign in with PKCE and call a tool, end to end."
 */
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import { connectFromNothing } from './oauth-client.js';
import { callTool, postToolsList } from './support.js';

describe('When an MCP client starts with no token', function () {
  this.timeout(120_000);

  describe('When it connects to the feedback board', () => {
    let fb: FeedbackHarness;
    before(async () => {
      fb = await startFeedback();
    });
    after(() => fb?.stop());

    it('discovers, registers, signs in with PKCE for the MCP endpoint and calls a tool', async () => {
      const owner = await fb.createMaker('max@acme.io');
      await fb.createProduct(owner.home, { key: 'APP', name: 'App', visibility: 'public' });
      const { client, provider, log } = await connectFromNothing({
        base: fb.url,
        email: owner.email,
        mailboxPath: fb.mailboxPath,
        clientName: 'Desktop Assistant',
      });
      try {
        // a 401 carrying WWW-Authenticate: Bearer resource_metadata="…" started it
        const unauthorized = log.find((r) => r.url === `${fb.url}/mcp` && r.status === 401);
        expect(unauthorized?.challenge).to.equal(
          `Bearer resource_metadata="${fb.url}/.well-known/oauth-protected-resource/mcp"`,
        );
        const visited = log.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`);
        expect(visited).to.include('GET /.well-known/oauth-protected-resource/mcp 200');
        expect(visited).to.include('POST /oauth/register 201');
        // PKCE S256 and the RFC 8707 resource: the MCP endpoint
        const auth = provider.authorizationUrl!;
        expect(auth.searchParams.get('code_challenge_method')).to.equal('S256');
        expect(auth.searchParams.get('resource')).to.equal(`${fb.url}/mcp`);
        const tokenRequest = log.find((r) => r.url.endsWith('/oauth/token'));
        expect(new URLSearchParams(tokenRequest?.body).get('resource')).to.equal(`${fb.url}/mcp`);
        // a token whose audience is the MCP endpoint
        const accessToken = provider.tokens()!.access_token;
        expect(decodeJwt(accessToken).aud).to.equal(`${fb.url}/mcp`);

        const result = await callTool({ client } as never, 'list_products', {
          slug: owner.home.slug,
        });
        expect(result.isError).to.not.equal(true);
        expect((result.structuredContent as { items: { id: string }[] }).items[0]?.id).to.equal(
          'APP',
        );
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).to.include('merge_items');
      } finally {
        await client.close();
      }
    });

    it('publishes metadata for the endpoint naming the service as its authorization server (RFC 9728)', async () => {
      const res = await fetch(`${fb.url}/.well-known/oauth-protected-resource/mcp`);
      expect(res.status).to.equal(200);
      const metadata = (await res.json()) as Record<string, unknown>;
      expect(metadata.resource).to.equal(`${fb.url}/mcp`);
      expect(metadata.authorization_servers).to.deep.equal([fb.url]);
      const server = (await (
        await fetch(`${fb.url}/.well-known/openid-configuration`)
      ).json()) as Record<string, unknown>;
      expect(server.issuer).to.equal(fb.url);
      expect(server.registration_endpoint).to.equal(`${fb.url}/oauth/register`);
      expect(server.code_challenge_methods_supported).to.deep.equal(['S256']);
    });

    /** A maker and the MCP endpoint's token an assistant got for them through the whole flow. */
    async function signedInAssistant(email: string, clientName: string) {
      const owner = await fb.createMaker(email);
      const { client, provider } = await connectFromNothing({
        base: fb.url,
        email: owner.email,
        mailboxPath: fb.mailboxPath,
        clientName,
      });
      await client.close();
      return { owner, provider };
    }

    it('keeps a token for the MCP endpoint to the endpoint: the REST API refuses it', async () => {
      const { owner, provider } = await signedInAssistant('ann@acme.io', 'Narrow Assistant');
      const rest = await fetch(`${fb.url}/v1/workspaces/${owner.home.slug}/products`, {
        headers: { authorization: `Bearer ${provider.tokens()!.access_token}` },
      });
      expect(rest.status).to.equal(401);
    });

    it('stops a token for the MCP endpoint once its client revokes it (RFC 7009)', async () => {
      // spec: personal tokens' "Revocation takes effect at once"; notes spec: POST /oauth/revoke
      // "revoke a token". A token bound to /mcp (RFC 8707) was refused by the revocation's
      // audience check and answered 200 while it kept working.
      const { provider } = await signedInAssistant('rev@acme.io', 'Revoked Assistant');
      const token = provider.tokens()!.access_token;
      const list = () => postToolsList(`${fb.url}/mcp`, { authorization: `Bearer ${token}` });
      expect((await list()).status).to.equal(200);
      const revoked = await fetch(`${fb.url}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          token,
          client_id: provider.clientInformation()!.client_id,
          token_type_hint: 'access_token',
        }),
      });
      expect(revoked.status).to.equal(200);
      const after = await list();
      expect(after.status).to.equal(401);
      expect(after.headers.get('www-authenticate')).to.match(/error="invalid_token"/);
    });

    it('answers a refused token with 401 and error="invalid_token" pointing at the metadata', async () => {
      const res = await postToolsList(`${fb.url}/mcp`, { authorization: 'Bearer not-a-token' });
      expect(res.status).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.equal(
        `Bearer resource_metadata="${fb.url}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`,
      );
      expect(await res.json()).to.have.keys('error', 'code');
    });

    it('answers GET and DELETE with 405 and Allow: POST (a stateless endpoint has no stream or session)', async () => {
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(`${fb.url}/mcp`, { method });
        expect(res.status, method).to.equal(405);
        expect(res.headers.get('allow')).to.equal('POST');
      }
    });
  });

  describe('When it connects to the notes service, on either host', () => {
    let notes: NotesE2e;
    before(async () => {
      notes = await startNotesE2e();
    });
    after(() => notes?.stop());

    for (const host of ['base', 'altBase'] as const) {
      it(`discovers, registers, signs in and calls a tool at ${host}/mcp`, async () => {
        const base = notes[host];
        const { client, provider } = await connectFromNothing({
          base,
          email: `${host.toLowerCase()}@example.com`,
          mailboxPath: notes.mailboxPath,
          clientName: 'Notes Assistant',
        });
        try {
          const token = decodeJwt(provider.tokens()!.access_token);
          expect(token.aud).to.equal(`${base}/mcp`);
          expect(String(token.scope).split(' ')).to.include('notes');
          const created = await callTool({ client } as never, 'create_note', {
            content: 'Written by an assistant',
            tags: ['mcp'],
          });
          expect(created.isError).to.not.equal(true);
          const listed = await callTool({ client } as never, 'list_notes', {});
          const notesListed = (listed.structuredContent as { notes: { content: string }[] }).notes;
          expect(notesListed.map((n) => n.content)).to.include('Written by an assistant');
        } finally {
          await client.close();
        }
      });
    }
  });
});
