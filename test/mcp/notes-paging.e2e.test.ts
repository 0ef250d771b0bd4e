/**
 * An assistant pages through the notes and a note's history with what the tools say, on the
 * hosted notes MCP server and the local one: the description names what to pass back and what
 * must stay the same, and following it returns every note (trash included) and every version
 * exactly once.
 *
 * Spec 001: "Paginating list endpoints return `nextPageToken`; pass it back as `pageToken` to
 * continue." "GET `/v1/notes/{id}/history` … archived versions, newest first".
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { type NotesE2e, type SignedIn, startNotesE2e } from '../notes/e2e/support.js';
import { callTool, type Connected, connectLocal, connectMcp } from './support.js';

type Page = { notes?: { id: string }[]; versions?: { revision: number }[]; nextPageToken: string };

async function walk(
  server: Connected,
  name: string,
  args: Record<string, unknown>,
): Promise<Page[]> {
  const pages: Page[] = [];
  let pageToken: string | null = null;
  do {
    const result = await callTool(server, name, { ...args, ...(pageToken ? { pageToken } : {}) });
    expect(result.isError, JSON.stringify(result)).to.not.equal(true);
    const page = result.structuredContent as Page;
    pages.push(page);
    pageToken = page.nextPageToken;
  } while (pageToken && pages.length < 20);
  return pages;
}

describe('When an assistant pages through notes over MCP', function () {
  this.timeout(120_000);
  let notes: NotesE2e;
  let ann: SignedIn;
  const ids: string[] = [];
  let edited: string;

  before(async () => {
    notes = await startNotesE2e();
    ann = await notes.signIn('ann@example.com');
    const api = notes.api(ann.token);
    for (const content of ['one', 'two', 'three', 'four', 'five']) {
      ids.push((await api('POST', '/v1/notes', { content })).body.id);
    }
    expect((await api('DELETE', `/v1/notes/${ids[1]}`)).status).to.equal(204);
    edited = ids[0]!;
    for (const content of ['one v2', 'one v3', 'one v4']) {
      expect((await api('PUT', `/v1/notes/${edited}`, { content })).status).to.equal(200);
    }
  });
  after(() => notes?.stop());

  for (const which of ['hosted', 'local'] as const) {
    it(`the ${which} server's list_notes and get_note_history say to pass nextPageToken back as pageToken, and doing so reads everything once`, async () => {
      const server =
        which === 'hosted'
          ? await connectMcp(`${notes.base}/mcp`, { token: ann.token })
          : await connectLocal(notes.base, ann.token);
      try {
        const tools = (await server.client.listTools()).tools;
        const described = (name: string) =>
          (tools.find((t: Tool) => t.name === name)?.description ?? '').replace(/`/g, '');
        // the description itself, not only the answer's schema, which a model may never see
        expect(described('list_notes'))
          .to.include('pass nextPageToken back as pageToken')
          .and.to.include('the same includeDeleted');
        expect(described('get_note_history')).to.include('pass nextPageToken back as pageToken');

        const listed = await walk(server, 'list_notes', { includeDeleted: true, limit: 2 });
        const seen = listed.flatMap((p) => p.notes!.map((n) => n.id));
        expect(seen.sort()).to.deep.equal([...ids].sort());
        expect(listed.length).to.equal(3);

        const history = await walk(server, 'get_note_history', { id: edited, limit: 2 });
        expect(history.flatMap((p) => p.versions!.map((v) => v.revision))).to.deep.equal([2, 1, 0]);
      } finally {
        await server.close();
      }
    });
  }
});
