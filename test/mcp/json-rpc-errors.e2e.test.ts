/**
 * Malformed JSON-RPC gets JSON-RPC's own error codes, with a message naming what is wrong, from
 * both notes MCP servers (the hosted one and the local stdio one) — README: "Protocol errors stay
 * JSON-RPC errors (an unknown tool, malformed params)". JSON-RPC 2.0 §5.1: -32600 "The JSON sent
 * is not a valid Request object", -32602 "Invalid method parameter(s)"; -32603 is the server's
 * own failure and -32700 is for text that is not JSON.
 */
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { NOT_UTF8 } from '../../src/http/json-body.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import { callTool, type Connected, connectLocal, connectMcp, envelopeOf } from './support.js';

/** a request sent as it is: the SDK client does not check params it does not know */
async function refusal(c: Connected, params: Record<string, unknown>): Promise<McpError> {
  const sent = c.client.request({ method: 'tools/call', params } as never, CallToolResultSchema);
  const error = await sent.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).to.be.instanceOf(McpError);
  return error as McpError;
}

describe('When an MCP server gets malformed JSON-RPC', function () {
  this.timeout(60_000);
  let notes: NotesE2e;
  let token: string;
  before(async () => {
    notes = await startNotesE2e();
    token = (await notes.signIn('ann@example.com')).token;
  });
  after(() => notes?.stop());

  for (const server of ['hosted', 'local'] as const) {
    it(`answers params of the wrong shape with -32602 naming the field (${server})`, async () => {
      const c =
        server === 'hosted'
          ? await connectMcp(`${notes.base}/mcp`, { token })
          : await connectLocal(notes.base, token);
      try {
        const badArguments = await refusal(c, { name: 'list_notes', arguments: ['x'] });
        expect(badArguments.code).to.equal(-32602);
        expect(badArguments.message).to.include('params.arguments');
        const noName = await refusal(c, { arguments: {} });
        expect(noName.code).to.equal(-32602);
        expect(noName.message).to.include('params.name');
        // the server goes on serving
        const { tools } = await c.client.listTools();
        expect(tools.length).to.be.greaterThan(0);
        // a tool call without the resource's id: the same answer from both servers (the
        // hosted one said 404 "note not found", the local one 400 "id is required")
        const noId = await callTool(c, 'get_note', { id: '' });
        expect(envelopeOf(noId)).to.deep.equal({ error: 'id is required' });
        expect(noId._meta?.status).to.equal(400);
      } finally {
        await c.close();
      }
    });
  }

  for (const server of ['hosted', 'local'] as const) {
    it(`refuses an argument named __proto__, constructor or prototype with -32602 naming it, and runs nothing (${server})`, async () => {
      // src/mcp/tool-input.ts RESERVED_ARGUMENT_NAMES: the SDK's parse dropped an own
      // `__proto__` key, so create_note ran without the argument and said nothing
      const c =
        server === 'hosted'
          ? await connectMcp(`${notes.base}/mcp`, { token })
          : await connectLocal(notes.base, token);
      const marker = `reserved-${server}-${Date.now()}`;
      try {
        for (const name of ['__proto__', 'constructor', 'prototype']) {
          const args = JSON.parse(`{"content": "${marker} ${name}", "${name}": {"x": 1}}`);
          expect(Object.keys(args), 'an own key, as JSON.parse keeps it').to.include(name);
          const refused = await refusal(c, { name: 'create_note', arguments: args });
          expect(refused.code, name).to.equal(-32602);
          expect(refused.message).to.include(
            `params.arguments.${name}: no tool takes an argument named "${name}"`,
          );
        }
      } finally {
        await c.close();
      }
      const listed = await notes.api(token)('GET', '/v1/notes?limit=100');
      expect(JSON.stringify(listed.body)).to.not.include(marker);
    });
  }

  const post = (body: unknown) =>
    fetch(`${notes.base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: body instanceof Blob ? body : JSON.stringify(body),
    });

  it('answers a message that is not UTF-8 with -32700 saying so (hosted)', async () => {
    // RFC 8259 §8.1: JSON exchanged between systems MUST be UTF-8 (src/http/json-body.ts)
    const text = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x\xff"}}';
    const res = await post(new Blob([Buffer.from(text, 'latin1')]));
    expect(res.status).to.equal(400);
    const answer = (await res.json()) as { error: { code: number; message: string } };
    expect(answer.error).to.deep.equal({ code: -32700, message: `Parse error: ${NOT_UTF8}` });
  });

  it('answers a body that is not application/json with 415 (hosted; Streamable HTTP POSTs JSON)', async () => {
    // before: 400 -32600 "a message is a JSON object" for a well-formed message sent as text/plain
    const res = await fetch(`${notes.base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'text/plain',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).to.equal(415);
    const answer = (await res.json()) as { error: { code: number; message: string } };
    expect(answer.error.message).to.include('Content-Type must be application/json');
  });

  it('answers JSON that is no JSON-RPC request with 400 and -32600 (hosted)', async () => {
    for (const [body, says] of [
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: 'x' }, 'params must be an object'],
      [{ jsonrpc: '2.0', id: null, method: 'tools/list' }, 'id must be a string or a number'],
      [{ jsonrpc: '1.0', id: 1, method: 'tools/list' }, 'jsonrpc must be "2.0"'],
      // JSON, though no object (JSON-RPC 2.0 §5.1): not -32700 ("Invalid JSON was received")
      [null, 'a message is a JSON object'],
      [1, 'a message is a JSON object'],
    ] as const) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      const answer = (await res.json()) as { error: { code: number; message: string } };
      expect(answer.error.code).to.equal(-32600);
      expect(answer.error.message).to.include(says);
    }
  });

  it('refuses a batch whose requests share an id, before any of them runs (hosted)', async () => {
    // MCP audit: [ping #7, create_note #7] got one answer (the ping's) while the note was made
    const marker = `batch-dup-${Date.now()}`;
    const res = await post([
      { jsonrpc: '2.0', id: 7, method: 'ping' },
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'create_note', arguments: { content: marker } },
      },
    ]);
    expect(res.status).to.equal(400);
    const answer = (await res.json()) as { error: { code: number; message: string } };
    expect(answer.error.code).to.equal(-32600);
    expect(answer.error.message).to.include('7 is used twice');
    const listed = await fetch(`${notes.base}/v1/notes`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(JSON.stringify(await listed.json())).to.not.include(marker);
  });

  it('answers initialize without params with -32602 (hosted)', async () => {
    const res = await post({ jsonrpc: '2.0', id: 7, method: 'initialize' });
    const answer = (await res.json()) as { id: number; error: { code: number; message: string } };
    expect(answer.id).to.equal(7);
    expect(answer.error.code).to.equal(-32602);
    expect(answer.error.message).to.include('params');
  });
});
