/**
 * What the bounds of a batch do when the transport cannot send an answer (src/mcp/batch-work.ts),
 * with the real SDK server over a transport that fails as the SDK's did in MCP audit F4 (its
 * JSON.stringify threw past V8's string limit, the error was swallowed and the request hung).
 *
 * README (MCP servers, Transport): "Whatever fails inside the SDK is logged, and an answer it
 * cannot send is answered 500 with -32603 naming the correlation id."
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { boundBatchWork } from '../../src/mcp/batch-work.js';
import { createMcpServer } from '../../src/mcp/server.js';

const call = (id: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { id } },
});

function failingTransport(failFor: RequestId) {
  const sent: JSONRPCMessage[] = [];
  const transport: Transport = {
    async start() {},
    async close() {
      transport.onclose?.();
    },
    async send(message) {
      if ('id' in message && message.id === failFor) throw new RangeError('Invalid string length');
      sent.push(message);
    },
  };
  return { transport, sent };
}

describe('When the transport cannot send an answer of a batch', () => {
  it('reports it with the call id, and the calls after it still run and are answered', async () => {
    const started: number[] = [];
    const server = createMcpServer(
      { name: 'test', version: '1.0.0' },
      {
        list: () => [],
        async call(_name, args) {
          started.push(Number(args?.id));
          return { content: [{ type: 'text', text: String(args?.id) }] };
        },
      },
    );
    const { transport, sent } = failingTransport(1);
    await server.connect(transport);
    const failed: Array<[RequestId, unknown]> = [];
    boundBatchWork(transport, {
      maxAnswerBytes: 1_000_000,
      onRefused: () => {},
      onSendFailed: (id, error) => failed.push([id, error]),
    });
    for (const id of [1, 2, 3]) transport.onmessage?.(call(id));
    for (let i = 0; i < 50 && sent.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(failed.map(([id]) => id)).to.deep.equal([1]);
    expect(failed[0]![1]).to.be.instanceOf(RangeError);
    expect(sent.map((m) => ('id' in m ? m.id : null))).to.deep.equal([2, 3]);
    expect(started).to.deep.equal([1, 2, 3]);
  });
});
