/**
 * The status the access log and the request metric take for a JSON-RPC error the server sends
 * (src/mcp/message-check.ts `reportProtocolErrors`), with the real SDK server over an in-memory
 * transport. README (Logs, metrics, shutdown): "a JSON-RPC error answered 200 with the status a
 * REST route would answer: … 500 for the server's own failure (-32603)".
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { reportProtocolErrors } from '../../src/mcp/message-check.js';
import { createMcpServer, unknownTool } from '../../src/mcp/server.js';

function memoryTransport() {
  const sent: JSONRPCMessage[] = [];
  const transport: Transport = {
    async start() {},
    async close() {},
    async send(message) {
      sent.push(message);
    },
  };
  return { transport, sent };
}

/** the statuses reported for one tools/call whose catalog call throws `error` */
async function reportedFor(error: Error): Promise<{ statuses: number[]; code?: number }> {
  const server = createMcpServer(
    { name: 'test', version: '1.0.0' },
    {
      list: () => [],
      call: async () => {
        throw error;
      },
    },
  );
  const { transport, sent } = memoryTransport();
  await server.connect(transport);
  const statuses: number[] = [];
  reportProtocolErrors(transport, (status) => statuses.push(status));
  transport.onmessage?.({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'anything', arguments: {} },
  });
  for (let i = 0; i < 50 && sent.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  await server.close();
  const answer = sent[0] as { error?: { code: number } } | undefined;
  return { statuses, code: answer?.error?.code };
}

describe('When the MCP server answers a call with a JSON-RPC error', () => {
  it('reports an internal error (-32603: the server failed) as 500, not as the 200 it is sent with', async () => {
    const { statuses, code } = await reportedFor(new TypeError('cannot read properties'));
    expect(code).to.equal(-32603);
    expect(statuses).to.deep.equal([500]);
  });

  it('reports invalid params (an unknown tool) as 400, as before', async () => {
    const { statuses, code } = await reportedFor(unknownTool('nope'));
    expect(code).to.equal(-32602);
    expect(statuses).to.deep.equal([400]);
  });
});
