/**
 * The notes service's two MCP servers: the hosted one at /mcp (Streamable HTTP) and the local
 * one over stdio (`bin/notes-mcp.js`, a thin client of the HTTP API), both driven by the
 * official MCP SDK client.
 *
 * Spec 001: "Both a hosted and a local MCP server are thin wrappers over this API." "Only
 * `GET /v1/devices` is exposed by the hosted MCP server; the write operations exist over the
 * API and on the local MCP server." "Access is strictly per user".
 */
import { expect } from 'chai';
import { oidc } from '../auth/support/client.js';
import { type NotesE2e, type SignedIn, startNotesE2e } from '../notes/e2e/support.js';
import { schemaMeaning } from './schema-meaning.js';
import { callTool, connectLocal, connectMcp, envelopeOf, postToolsList } from './support.js';

const DEVICE_WRITES = ['register_device', 'update_device'];

describe('When assistants use the notes MCP servers', function () {
  this.timeout(120_000);
  let notes: NotesE2e;
  let ann: SignedIn;
  let bob: SignedIn;
  let annNote: { id: string };

  before(async () => {
    notes = await startNotesE2e();
    ann = await notes.signIn('ann@example.com');
    bob = await notes.signIn('bob@example.com');
    const created = await notes.api(ann.token)('POST', '/v1/notes', {
      content: "Ann's private plans",
      tags: ['secret'],
    });
    expect(created.status).to.equal(201);
    annNote = created.body;
  });
  after(() => notes?.stop());

  describe('When the hosted server lists its tools', () => {
    it('offers every notes and tags operation and list_devices, and no device write nor get_device', async () => {
      const hosted = await connectMcp(`${notes.base}/mcp`, { token: ann.token });
      try {
        const names = (await hosted.client.listTools()).tools.map((t) => t.name).sort();
        const expected = notes
          .app()
          .http.operations.filter((op) => op.meta.hostedMcp !== false)
          .map((op) => op.id)
          .sort();
        expect(names).to.deep.equal(expected);
        expect(names).to.include('list_devices');
        expect(names).to.include.members(['create_note', 'list_notes', 'create_tag', 'list_tags']);
        for (const excluded of [...DEVICE_WRITES, 'get_device']) {
          expect(names, excluded).to.not.include(excluded);
        }
        const refused = await hosted.client
          .callTool({ name: 'register_device', arguments: { name: 'x', platform: 'y' } })
          .then(
            () => null,
            (e: unknown) => e as { code?: number },
          );
        expect(refused?.code, 'not a tool of the hosted server: a protocol error').to.equal(-32602);
      } finally {
        await hosted.close();
      }
    });

    it('answers a token without the notes scope with 403 insufficient_scope naming the endpoint metadata', async () => {
      // a refresh may narrow the scope (RFC 6749 §6): down to offline_access, without notes
      const carl = await notes.signIn('carl@example.com', { scope: 'notes offline_access' });
      const narrow = {
        token: (
          await oidc.refreshTokenGrant(carl.config, carl.tokens.refresh_token as string, {
            scope: 'offline_access',
          })
        ).access_token,
      };
      const res = await postToolsList(`${notes.base}/mcp`, {
        authorization: `Bearer ${narrow.token}`,
      });
      expect(res.status).to.equal(403);
      expect(res.headers.get('www-authenticate')).to.equal(
        `Bearer resource_metadata="${notes.base}/.well-known/oauth-protected-resource/mcp", error="insufficient_scope", scope="notes"`,
      );
      expect(await res.json()).to.have.keys('error');
    });
  });

  describe("When user B asks for user A's notes", () => {
    it("the hosted server lists only B's notes and answers A's note exactly as REST does (404)", async () => {
      const hosted = await connectMcp(`${notes.base}/mcp`, { token: bob.token });
      try {
        const listed = await callTool(hosted, 'list_notes', {});
        expect(listed.isError).to.not.equal(true);
        const ids = (listed.structuredContent as { notes: { id: string }[] }).notes.map(
          (n) => n.id,
        );
        expect(ids).to.not.include(annNote.id);
        const rest = await notes.api(bob.token)('GET', `/v1/notes/${annNote.id}`);
        expect(rest.status).to.equal(404);
        const read = await callTool(hosted, 'get_note', { id: annNote.id });
        expect(envelopeOf(read)).to.deep.equal(rest.body);
        const tagged = await callTool(hosted, 'list_tags', {});
        const tags = (tagged.structuredContent as { tags: { name: string }[] }).tags;
        expect(tags.map((t) => t.name)).to.not.include('secret');
      } finally {
        await hosted.close();
      }
    });

    it("the local server, run with B's token, never shows A's note either", async () => {
      const local = await connectLocal(notes.base, bob.token);
      try {
        const listed = await callTool(local, 'list_notes', { includeDeleted: true });
        const ids = (listed.structuredContent as { notes: { id: string }[] }).notes.map(
          (n) => n.id,
        );
        expect(ids).to.not.include(annNote.id);
        const rest = await notes.api(bob.token)('GET', `/v1/notes/${annNote.id}`);
        const read = await callTool(local, 'get_note', { id: annNote.id });
        expect(envelopeOf(read)).to.deep.equal(rest.body);
        expect(read._meta?.status).to.equal(404);
      } finally {
        await local.close();
      }
    });
  });

  describe('When the local server runs over stdio', () => {
    it("offers every operation of the API, the device writes included, with the hosted tools' schemas", async () => {
      const local = await connectLocal(notes.base, ann.token);
      const hosted = await connectMcp(`${notes.base}/mcp`, { token: ann.token });
      try {
        const localTools = (await local.client.listTools()).tools;
        const names = localTools.map((t) => t.name).sort();
        const all = notes
          .app()
          .http.operations.map((op) => op.id)
          .sort();
        expect(names).to.deep.equal(all);
        expect(names).to.include.members([...DEVICE_WRITES, 'get_device']);
        // the same generated tools: same words, same arguments with the same bounds, same
        // answers, same annotations (schemaMeaning: spelt apart by the OpenAPI document only)
        for (const tool of (await hosted.client.listTools()).tools) {
          const twin = localTools.find((t) => t.name === tool.name)!;
          expect([twin.title, twin.description], tool.name).to.deep.equal([
            tool.title,
            tool.description,
          ]);
          expect(schemaMeaning(twin.inputSchema), tool.name).to.deep.equal(
            schemaMeaning(tool.inputSchema),
          );
          expect(schemaMeaning(twin.outputSchema, true), tool.name).to.deep.equal(
            schemaMeaning(tool.outputSchema, true),
          );
          expect(twin.annotations, tool.name).to.deep.equal(tool.annotations);
          // restoring an active note or adding a tag it has changes nothing: hinted idempotent
          if (tool.name === 'restore_note' || tool.name === 'add_note_tag') {
            expect(twin.annotations?.idempotentHint, tool.name).to.equal(true);
          }
        }
        // both servers tell the model what a call passes in `_meta` (README: per-call `_meta`
        // carries idempotencyKey and ifMatch), naming no header (mcp-terms.e2e.test.ts)
        for (const server of [local, hosted]) {
          expect(server.client.getInstructions())
            .to.include("takes `_meta.idempotencyKey` in the call's `_meta`")
            .and.to.include('pass it back as `_meta.ifMatch`');
        }
      } finally {
        await local.close();
        await hosted.close();
      }
    });

    it('registers a device that list_devices then shows over REST', async () => {
      const local = await connectLocal(notes.base, ann.token);
      try {
        const registered = await callTool(local, 'register_device', {
          name: "Ann's phone",
          platform: 'android',
        });
        expect(registered.isError, JSON.stringify(registered)).to.not.equal(true);
        const device = registered.structuredContent as { id: string; name: string };
        expect(device.name).to.equal("Ann's phone");
        expect(registered._meta?.etag).to.be.a('string');
        const rest = await notes.api(ann.token)('GET', '/v1/devices');
        expect(rest.status).to.equal(200);
        expect(rest.body.devices.map((d: { id: string }) => d.id)).to.include(device.id);
        // a rename with the ETag the registration answered (If-Match over MCP is _meta.ifMatch)
        const renamed = await callTool(
          local,
          'update_device',
          { id: device.id, name: "Ann's old phone" },
          { ifMatch: registered._meta?.etag },
        );
        expect((renamed.structuredContent as { name: string }).name).to.equal("Ann's old phone");
        const stale = await callTool(
          local,
          'update_device',
          { id: device.id, name: 'Lost update' },
          { ifMatch: registered._meta?.etag },
        );
        expect(stale._meta?.status).to.equal(412);
        expect(envelopeOf(stale)).to.have.keys('error');
        // and the hosted server shows it too, read-only
        const hosted = await connectMcp(`${notes.base}/mcp`, { token: ann.token });
        const listed = await callTool(hosted, 'list_devices', {});
        await hosted.close();
        expect(listed.structuredContent).to.deep.equal(
          (await notes.api(ann.token)('GET', '/v1/devices')).body,
        );
      } finally {
        await local.close();
      }
    });

    it("answers a refused token with the API's 401 envelope as an error result telling what the user must do", async () => {
      const local = await connectLocal(notes.base, 'expired-or-wrong');
      try {
        const result = await callTool(local, 'list_notes', {});
        expect(result._meta?.status).to.equal(401);
        expect(envelopeOf(result)).to.have.keys('error');
        // the server cannot sign in by itself (its token comes from the environment): the
        // assistant is told the call did not run and what the user must set
        expect(envelopeOf(result).error)
          .to.match(
            /^invalid access token: the notes service refused this server's NOTES_ACCESS_TOKEN/,
          )
          .and.to.include('this call did not run')
          .and.to.include('set NOTES_ACCESS_TOKEN to a new access token');
      } finally {
        await local.close();
      }
    });
  });
});
