/**
 * An assistant pages with what the tools tell it, on the feedback board's hosted MCP server and
 * both notes servers. Spec 000 "Paging": "A response carries `nextCursor`; pass it back as
 * `cursor` for the next page. It is null at the end." Spec 001: "Paginating list endpoints
 * return `nextPageToken`; pass it back as `pageToken` to continue."
 *  - every tool whose answer carries a next cursor says in its own description what to pass back
 *    as what (a model reads a tool's description; the answer's schema it may never see, and the
 *    server's instructions not every client shows);
 *  - a cursor the listing refuses — edited, another listing's, or sent with other filters than
 *    its page's — is an error result naming each cause and both ways on: the same filters, or
 *    no cursor to start again (it said "pass back the value unchanged", which an assistant that
 *    had changed a filter did, and was refused again).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import { callTool, type Connected, connectLocal, connectMcp, envelopeOf } from './support.js';

/** The answer's next-cursor field and the argument it goes back as, of a paged tool. */
function pagingOf(tool: Tool): { next: string; param: string } | undefined {
  const out = (tool.outputSchema?.properties ?? {}) as Record<string, { type?: unknown }>;
  const next = Object.keys(out).find(
    (k) => /^next(Cursor|PageToken)$/.test(k) && [out[k]!.type].flat().includes('string'),
  );
  const input = Object.keys(tool.inputSchema.properties ?? {});
  const param = input.find((k) => ['cursor', 'pageToken', 'after'].includes(k));
  return next && param ? { next, param } : undefined;
}

function checkDescriptions(tools: readonly Tool[]): string[] {
  const paged: string[] = [];
  for (const tool of tools) {
    const paging = pagingOf(tool);
    if (!paging) continue;
    paged.push(tool.name);
    const text = (tool.description ?? '').replace(/`/g, '');
    expect(text, tool.name).to.include(`pass ${paging.next} back as ${paging.param}`);
  }
  return paged;
}

const refusal = (server: Connected, name: string, args: Record<string, unknown>) =>
  callTool(server, name, args).then((result) => {
    expect(result._meta?.status, JSON.stringify(result)).to.equal(400);
    return envelopeOf(result).error!;
  });

describe('When an assistant pages over MCP with what the tools say (e2e)', function () {
  this.timeout(120_000);

  describe('When it is the feedback board', () => {
    let fb: FeedbackHarness;
    let mcp: Connected;
    let slug: string;
    before(async () => {
      fb = await startFeedback();
      const owner = await fb.createMaker('max@acme.io');
      slug = owner.home.slug;
      await fb.createProduct(owner.home, { key: 'APP', name: 'App', visibility: 'public' });
      for (const body of ['one', 'two', 'three']) await fb.submit(owner.home, 'APP', { body });
      mcp = await connectMcp(`${fb.url}/mcp`, { token: owner.token });
    });
    after(async () => {
      await mcp?.close();
      await fb?.stop();
    });

    it('every paged tool says what to pass back as what', async () => {
      const paged = checkDescriptions((await mcp.client.listTools()).tools);
      expect(paged).to.include.members([
        'list_items',
        'list_people',
        'get_item_history',
        'list_audit_events',
        'list_webhook_deliveries',
        'list_public_changelog',
        'list_events',
      ]);
    });

    it('a cursor sent with another filter is refused naming the filters and how to start again', async () => {
      const first = await callTool(mcp, 'list_items', { slug, key: 'APP', pageSize: 1 });
      const { nextCursor } = first.structuredContent as { nextCursor: string };
      const second = await callTool(mcp, 'list_items', {
        slug,
        key: 'APP',
        pageSize: 2,
        cursor: nextCursor,
      });
      expect(second.isError, 'pageSize may change').to.not.equal(true);
      const error = await refusal(mcp, 'list_items', {
        slug,
        key: 'APP',
        status: 'new',
        cursor: nextCursor,
      });
      expect(error)
        .to.include('issued with other filters')
        .and.to.include(
          "pass the previous answer's nextCursor back unchanged with the same filters",
        )
        .and.to.include('or leave cursor out to start from the first page');
      expect(await refusal(mcp, 'list_events', { slug, after: 'edited' })).to.match(
        /^after is not one this listing issued .*leave after out/,
      );
    });
  });

  describe('When it is the notes servers', () => {
    let notes: NotesE2e;
    let token: string;
    before(async () => {
      notes = await startNotesE2e();
      token = (await notes.signIn('ann@example.com')).token;
      const api = notes.api(token);
      for (const content of ['one', 'two']) await api('POST', '/v1/notes', { content });
    });
    after(() => notes?.stop());

    for (const which of ['hosted', 'local'] as const) {
      it(`the ${which} server's paged tools say what to pass back, and a token of the other listing is refused naming nextPageToken`, async () => {
        const server =
          which === 'hosted'
            ? await connectMcp(`${notes.base}/mcp`, { token })
            : await connectLocal(notes.base, token);
        try {
          const paged = checkDescriptions((await server.client.listTools()).tools);
          expect(paged).to.include.members(['list_notes', 'get_note_history']);
          const first = await callTool(server, 'list_notes', { limit: 1 });
          const { nextPageToken } = first.structuredContent as { nextPageToken: string };
          const error = await refusal(server, 'list_notes', {
            includeDeleted: true,
            pageToken: nextPageToken,
          });
          expect(error)
            .to.match(/^pageToken is not one this listing issued/)
            .and.to.include("pass the previous answer's nextPageToken back unchanged")
            .and.to.include('or leave pageToken out to start from the first page');
        } finally {
          await server.close();
        }
      });
    }
  });
});
