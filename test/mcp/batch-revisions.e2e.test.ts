/**
 * A JSON-RPC batch is served only under the protocol revision that has batches
 * (src/mcp/batch-revision.ts). MCP 2025-03-26 changelog: "Added support for JSON-RPC batching";
 * 2025-06-18 changelog: "Remove support for JSON-RPC batching", and its Streamable HTTP transport:
 * "The body of the POST request MUST be a single JSON-RPC request, notification, or response."
 * The SDK's transport served a batch under any revision.
 *
 * The revision of a stateless POST: an `initialize` request's, else the MCP-Protocol-Version
 * header, else 2025-03-26 (2025-06-18 transports: "if the server does not receive an
 * MCP-Protocol-Version header […] the server SHOULD assume protocol version 2025-03-26").
 */
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import { connectMcp } from './support.js';

type Answer = { id: number | null; result?: unknown; error?: { code: number; message: string } };

const createNote = (id: number, content: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'create_note', arguments: { content } },
});

describe('When an MCP client sends a JSON-RPC batch under a protocol revision', function () {
  this.timeout(60_000);
  let notes: NotesE2e;
  let token: string;
  before(async () => {
    notes = await startNotesE2e();
    token = (await notes.signIn('revisions@example.com')).token;
  });
  after(() => notes?.stop());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${notes.base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(body),
    });

  async function noteContents(): Promise<string[]> {
    const listed = await notes.api(token)('GET', '/v1/notes?limit=100');
    return (listed.body.notes as Array<{ content: string }>).map((n) => n.content);
  }

  async function expectRefused(res: Response, revision: string): Promise<void> {
    expect(res.status).to.equal(400);
    const answer = (await res.json()) as Answer;
    expect(answer.id).to.equal(null);
    expect(answer.error?.code).to.equal(-32600);
    expect(answer.error?.message).to.equal(
      `Invalid Request: MCP protocol revision ${revision} has no JSON-RPC batches (removed in 2025-06-18): send each message in its own POST`,
    );
  }

  it('refuses one under the revision the SDK client negotiated (2025-11-25), before any call runs', async () => {
    const mcp = await connectMcp(`${notes.base}/mcp`, { token });
    const negotiated = mcp.transport.protocolVersion!;
    await mcp.close();
    expect(negotiated).to.equal(LATEST_PROTOCOL_VERSION);
    const marker = `batch-${negotiated}-${Date.now()}`;
    const res = await post([createNote(1, `${marker} a`), createNote(2, `${marker} b`)], {
      'mcp-protocol-version': negotiated,
    });
    await expectRefused(res, negotiated);
    expect((await noteContents()).filter((c) => c.startsWith(marker))).to.deep.equal([]);
  });

  it('refuses one under 2025-06-18, the revision that removed batching', async () => {
    const res = await post([createNote(1, 'x'), { jsonrpc: '2.0', id: 2, method: 'tools/list' }], {
      'mcp-protocol-version': '2025-06-18',
    });
    await expectRefused(res, '2025-06-18');
  });

  it('refuses a batch holding an initialize that negotiates 2025-06-18', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'batching-client', version: '1.0.0' },
      },
    };
    await expectRefused(await post([initialize]), '2025-06-18');
    // alone, the same initialize is answered in that revision
    const alone = await post(initialize);
    expect(alone.status).to.equal(200);
    expect(((await alone.json()) as { result: { protocolVersion: string } }).result).to.include({
      protocolVersion: '2025-06-18',
    });
  });

  it('serves one under 2025-03-26, named by the header or assumed without one', async () => {
    const marker = `batch-2025-03-26-${Date.now()}`;
    const headerSets: Record<string, string>[] = [{ 'mcp-protocol-version': '2025-03-26' }, {}];
    for (const headers of headerSets) {
      const res = await post(
        [createNote(1, `${marker} ${Object.keys(headers).length}`), createNote(2, 'y')],
        headers,
      );
      expect(res.status, JSON.stringify(headers)).to.equal(200);
      const answers = (await res.json()) as Answer[];
      expect(answers.map((a) => [a.id, a.error])).to.deep.equal([
        [1, undefined],
        [2, undefined],
      ]);
    }
    expect((await noteContents()).filter((c) => c.startsWith(marker)).sort()).to.deep.equal([
      `${marker} 0`,
      `${marker} 1`,
    ]);
  });
});
