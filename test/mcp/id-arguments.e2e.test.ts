/**
 * An assistant follows ids from one tool's answer into another's arguments with what the
 * arguments say. Spec 001: `POST /v1/notes/{id}/tags/{tagId}` "adds an existing tag to the
 * note"; spec 000: get_person takes `personId`. An argument described as "opaque id" — both
 * of add_note_tag's — said neither whose id it is nor where one comes from; each now names the
 * record and the tools whose answers carry it, on the hosted and local notes servers alike.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import { callTool, type Connected, connectLocal, connectMcp, envelopeOf } from './support.js';

const described = (tools: readonly Tool[], tool: string, arg: string): string => {
  const found = tools.find((t) => t.name === tool);
  const schema = found?.inputSchema.properties?.[arg] as { description?: string } | undefined;
  return schema?.description ?? '';
};

/** Every argument that is an id names whose, and each tool it names is one of the server's. */
function checkIdArguments(tools: readonly Tool[]): void {
  const names = new Set(tools.map((t) => t.name));
  for (const tool of tools) {
    for (const arg of Object.keys(tool.inputSchema.properties ?? {})) {
      if (arg !== 'id' && !/^(tag|person|note)Id$/.test(arg)) continue;
      const text = described(tools, tool.name, arg);
      expect(text, `${tool.name}.${arg}`).to.match(/\b(the|a) \w+'s id, as /);
      const named = text.match(/\b[a-z]+_[a-z_]+\b/g) ?? [];
      expect(
        named.some((n) => names.has(n)),
        `${tool.name}.${arg}: ${text}`,
      ).to.equal(true);
    }
  }
}

describe('When an assistant follows ids between MCP tools (e2e)', function () {
  this.timeout(120_000);

  describe('When it is the notes servers', () => {
    let notes: NotesE2e;
    let token: string;
    before(async () => {
      notes = await startNotesE2e();
      token = (await notes.signIn('ann@example.com')).token;
    });
    after(() => notes?.stop());

    for (const which of ['hosted', 'local'] as const) {
      it(`the ${which} server's id arguments say whose id and where it comes from, and following them adds the tag`, async () => {
        const server: Connected =
          which === 'hosted'
            ? await connectMcp(`${notes.base}/mcp`, { token })
            : await connectLocal(notes.base, token);
        try {
          const { tools } = await server.client.listTools();
          checkIdArguments(tools);
          expect(described(tools, 'add_note_tag', 'id')).to.match(/^the note's id, as list_notes/);
          expect(described(tools, 'add_note_tag', 'tagId')).to.match(/^the tag's id, as list_tags/);
          expect(described(tools, 'update_tag', 'id')).to.match(/^the tag's id/);
          const note = await callTool(server, 'create_note', { content: `from ${which}` });
          const tag = await callTool(server, 'create_tag', { name: `errands-${which}` });
          const added = await callTool(server, 'add_note_tag', {
            id: (note.structuredContent as { id: string }).id,
            tagId: (tag.structuredContent as { id: string }).id,
          });
          expect(added.isError, JSON.stringify(added)).to.not.equal(true);
        } finally {
          await server.close();
        }
      });
    }
  });

  describe('When it is the feedback board', () => {
    let fb: FeedbackHarness;
    before(async () => {
      fb = await startFeedback();
    });
    after(() => fb?.stop());

    it("get_person's personId says whose id and which tools answer it", async () => {
      const owner = await fb.createMaker('max@acme.io');
      const mcp = await connectMcp(`${fb.url}/mcp`, { token: owner.token });
      try {
        const { tools } = await mcp.client.listTools();
        checkIdArguments(tools);
        expect(described(tools, 'get_person', 'personId')).to.include('list_people');
      } finally {
        await mcp.close();
      }
    });

    it('a key argument in the wrong format is refused with its format, still 404 as REST answers', async () => {
      // spec 000 Addressing: product key `^[A-Z]{3,5}$`, item key `^[A-Z]{3,5}-[1-9]\d*$`; a
      // malformed URL segment answers REST's 404, and a tool call's refusal says the format
      // too ("app" said only "product not found", though APP was the product)
      const owner = await fb.createMaker('ida@acme.io');
      await fb.createProduct(owner.home, { key: 'APP', name: 'App', visibility: 'public' });
      const mcp = await connectMcp(`${fb.url}/mcp`, { token: owner.token });
      try {
        const slug = owner.home.slug;
        const lower = await callTool(mcp, 'list_items', { slug, key: 'app' });
        expect(lower._meta?.status).to.equal(404);
        expect(envelopeOf(lower)).to.deep.equal({
          error: 'product not found: key has an invalid format (must match /^[A-Z]{3,5}$/)',
          code: 'not-found',
        });
        const padded = await callTool(mcp, 'get_item', { slug, key: 'APP', itemKey: 'APP-01' });
        expect(envelopeOf(padded).error).to.match(/^item not found: itemKey has an invalid format/);
        const rest = await fb.api(owner.token).get(`/v1/workspaces/${slug}/products/app/items`);
        expect(rest.status).to.equal(404);
        expect(rest.body.error, 'REST answers as it did').to.equal('product not found');
      } finally {
        await mcp.close();
      }
    });
  });
});
