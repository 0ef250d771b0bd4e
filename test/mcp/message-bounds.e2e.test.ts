/**
 * How large a message each MCP server takes, through the official SDK client: the hosted notes
 * server (Streamable HTTP), the local one (stdio, which forwards a call to REST) and the hosted
 * feedback server meet an assistant alike. MCP (server tools, "Error Handling"): a tool's failure
 * is reported "in the result object, not as an MCP protocol-level error", so the model can see it
 * and correct the call — a call whose arguments are too large for the API is such a failure, the
 * error result REST's status names (notes 413, feedback 400). Only a message no server reads at
 * all (over 2 MiB on the hosted servers, which hold a body per connection; over 10 MiB, the SDK's
 * own stdio bound, on the local one) is a JSON-RPC error, -32700, and the session goes on.
 */
import { expect } from 'chai';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import {
  callTool,
  type Connected,
  connectLocal,
  connectMcp,
  envelopeOf,
  feedbackMcpWithItem,
} from './support.js';

const MiB = 1024 * 1024;
const TOO_LARGE_FOR_THE_API = 'request body is too large: at most 1,048,576 bytes';

describe('When an MCP tool call is larger than the API or the server takes', function () {
  this.timeout(120_000);

  describe('on the notes servers, hosted and local', () => {
    let notes: NotesE2e;
    const servers: Array<[string, Connected]> = [];
    before(async () => {
      notes = await startNotesE2e();
      const { token } = await notes.signIn('bea@example.com');
      servers.push(['hosted', await connectMcp(`${notes.base}/mcp`, { token })]);
      servers.push(['local', await connectLocal(notes.base, token)]);
    });
    after(async () => {
      for (const [, server] of servers) await server.close();
      await notes?.stop();
    });

    it('answers arguments over the API body limit with the error result REST gives: 413', async () => {
      for (const [name, mcp] of servers) {
        const big = await callTool(mcp, 'create_note', { content: 'a'.repeat(1.5 * MiB) });
        expect(big.isError, name).to.equal(true);
        expect(big._meta?.status, name).to.equal(413);
        expect(envelopeOf(big), name).to.deep.equal({ error: TOO_LARGE_FOR_THE_API });
      }
    });

    it('answers a message over its bound -32700 "the message is too large", and the session goes on', async () => {
      const bounds: Record<string, number> = { hosted: 2 * MiB, local: 10 * MiB };
      for (const [name, mcp] of servers) {
        const bound = bounds[name] as number;
        let refused: unknown;
        try {
          await mcp.client.callTool(
            { name: 'create_note', arguments: { content: 'a'.repeat(bound + MiB) } },
            undefined,
            { timeout: 20_000 },
          );
        } catch (error) {
          refused = error;
        }
        expect(String(refused), name)
          .to.include('-32700')
          .and.to.include('the message is too large')
          // the bound the server reads to, named
          .and.to.include(`; at most ${bound})`);
        const made = await callTool(mcp, 'create_note', { content: 'After the big one' });
        expect(made.isError, `${name}: ${JSON.stringify(made.content)}`).to.not.equal(true);
      }
    });
  });

  describe('on the hosted feedback server', () => {
    const w = feedbackMcpWithItem();

    it('answers arguments over the API body limit with the error result REST gives: 400', async () => {
      const big = await callTool(w.mcp, 'update_item_status', {
        ...w.args,
        status: 'x'.repeat(1.5 * MiB),
      });
      expect(big._meta?.status).to.equal(400);
      expect(envelopeOf(big)).to.deep.equal({
        error: TOO_LARGE_FOR_THE_API,
        code: 'invalid-argument',
      });
    });
  });
});
