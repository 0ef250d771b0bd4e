/**
 * The local notes MCP server's stdio transport, as a client meets it: every line it reads gets
 * an answer, no line ends the session, and a bad configuration is a prompt, stated failure.
 *
 * README: "protocol problems (unknown tool, malformed request) stay JSON-RPC errors"; JSON-RPC
 * 2.0 §5: "When a rpc call is made, the Server MUST reply with a Response" — with id null when
 * the request's id could not be read (Parse error, Invalid Request).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'chai';
import { type NotesE2e, type SignedIn, startNotesE2e } from '../notes/e2e/support.js';
import { callTool, connectLocal } from './support.js';

/** Lines written to the server one by one; the lines it answered once stdin closed. */
async function exchangeLines(env: Record<string, string>, lines: string[]) {
  const child = spawn(process.execPath, [path.resolve('bin/notes-mcp.js')], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  for (const line of lines) child.stdin.write(`${line}\n`);
  // every request is answered: wait for as many answers as lines with an id (ping last)
  const deadline = Date.now() + 10_000;
  while (!out.includes('"id":"last"') && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  child.stdin.end();
  const code = await new Promise((resolve) => child.on('exit', resolve));
  return {
    code,
    answers: out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  };
}

describe('When a client runs the local notes MCP server over stdio', function () {
  this.timeout(120_000);
  let notes: NotesE2e;
  let ann: SignedIn;

  before(async () => {
    notes = await startNotesE2e();
    ann = await notes.signIn('ann@example.com');
  });
  after(async () => notes?.stop());

  it('answers a message over 10 MiB with a JSON-RPC error for its id and goes on serving the session', async () => {
    // the SDK's stdio transport closed the session on it: this call and every later one failed
    // "Connection closed", and the server process was gone
    const local = await connectLocal(notes.base, ann.token);
    try {
      let refused: unknown;
      try {
        await local.client.callTool(
          { name: 'create_note', arguments: { content: 'a'.repeat(11 * 1024 * 1024) } },
          undefined,
          { timeout: 10_000 },
        );
      } catch (error) {
        refused = error;
      }
      expect(String(refused)).to.include('-32700').and.to.include('the message is too large');
      // the session goes on: a note of the service's size is still made
      const made = await callTool(local, 'create_note', { content: 'After the big one' });
      expect(made.isError, JSON.stringify(made)).to.not.equal(true);
      // between 1 MiB and 10 MiB the service itself refuses it: a tool error, 413
      const big = await callTool(local, 'create_note', { content: 'a'.repeat(2 * 1024 * 1024) });
      expect(big._meta?.status).to.equal(413);
    } finally {
      await local.close();
    }
  });

  it('with a bad configuration ends at once, saying why on stderr, and the client is told the connection closed rather than left waiting', async () => {
    // README: "with a bad configuration … it ends at once with status 1 and says why on stderr"
    for (const [env, said] of [
      [{ NOTES_BASE_URL: notes.base }, 'NOTES_ACCESS_TOKEN is required'],
      [{ NOTES_ACCESS_TOKEN: ann.token, NOTES_BASE_URL: 'ftp://example.com' }, 'NOTES_BASE_URL'],
      [{ NOTES_ACCESS_TOKEN: ann.token, NOTES_MCP_TIMEOUT_MS: 'soon' }, 'NOTES_MCP_TIMEOUT_MS'],
    ] as const) {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [path.resolve('bin/notes-mcp.js')],
        env: { PATH: process.env.PATH ?? '', ...env },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (d) => {
        stderr += d;
      });
      const started = Date.now();
      const failed = await new Client({ name: 't', version: '1' }).connect(transport).then(
        () => 'connected',
        (error: unknown) => String(error),
      );
      expect(failed, JSON.stringify(env)).to.include('Connection closed');
      expect(Date.now() - started, 'a clean failure, not a wait').to.be.below(10_000);
      expect(stderr).to.include(said);
    }
  });

  it('answers a line that is not JSON, or not a JSON-RPC message, with -32700 / -32600, its id when it has one', async () => {
    // the SDK's transport dropped them unanswered: a client waited for id 5 until its timeout
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    };
    const { code, answers } = await exchangeLines(
      { NOTES_ACCESS_TOKEN: ann.token, NOTES_BASE_URL: notes.base },
      [
        JSON.stringify(init),
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":[]}',
        '{"jsonrpc":"1.0","id":7,"method":"tools/list"}',
        '{"jsonrpc":"2.0","id":9,"method":"tools/call"',
        '{"jsonrpc":"2.0","id":"last","method":"ping"}',
      ],
    );
    expect(code, 'stdin closed: the server ends with 0').to.equal(0);
    const byId = (id: unknown) => answers.find((a) => a.id === id);
    expect(byId(5)?.error?.code, JSON.stringify(answers)).to.equal(-32600);
    expect(byId(5).error.message).to.include('params must be an object');
    expect(byId(7)?.error?.code).to.equal(-32600);
    expect(byId(7).error.message).to.include('jsonrpc must be "2.0"');
    expect(byId(null)?.error?.code, 'the unparsable line: id null').to.equal(-32700);
    expect(byId('last')?.result).to.deep.equal({});
    expect(byId(1)?.result?.serverInfo?.name).to.equal('notes-local');
  });
});
