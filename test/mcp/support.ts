/**
 * The official MCP SDK client against a service's hosted endpoint over real HTTP (Streamable
 * HTTP transport), with a bearer credential or an OAuth client provider; and the local notes
 * server over stdio.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type FeedbackHarness, type Maker, startFeedback } from '../feedback/support/harness.js';

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  close(): Promise<void>;
}

export async function connectMcp(
  url: string,
  auth: { token?: string; authProvider?: OAuthClientProvider } = {},
): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(auth.token ? { requestInit: { headers: { authorization: `Bearer ${auth.token}` } } } : {}),
    ...(auth.authProvider ? { authProvider: auth.authProvider } : {}),
  });
  const client = new Client({ name: 'mcp-test-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, close: () => client.close() };
}

/** What feedbackMcpWithItem gives its tests once `before` ran. */
export interface FeedbackMcpWorld {
  fb: FeedbackHarness;
  owner: Maker;
  mcp: Connected;
  /** slug, key and itemKey of the one item */
  args: Record<string, string>;
}

/**
 * Registers mocha hooks: the feedback app with max's public product APP holding one item, and the
 * SDK client on its hosted MCP endpoint with max's token; stopped after the suite.
 */
export function feedbackMcpWithItem(): FeedbackMcpWorld {
  const world = {} as FeedbackMcpWorld;
  before(async () => {
    world.fb = await startFeedback();
    world.owner = await world.fb.createMaker('max@acme.io');
    const { home } = world.owner;
    await world.fb.createProduct(home, { key: 'APP', name: 'App', visibility: 'public' });
    const { itemKey } = await world.fb.submit(home, 'APP', { body: 'Dark mode please' });
    world.args = { slug: home.slug, key: 'APP', itemKey };
    world.mcp = await connectMcp(`${world.fb.url}/mcp`, { token: world.owner.token });
  });
  after(async () => {
    await world.mcp?.close();
    await world.fb?.stop();
  });
  return world;
}

/**
 * A raw `tools/list` POST to a hosted MCP endpoint, for what the SDK client hides (status codes,
 * `WWW-Authenticate`, CORS headers): `headers` add to or replace the Streamable HTTP ones.
 */
export function postToolsList(mcpUrl: string, headers: Record<string, string> = {}) {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
}

/** Call a tool; returns the result as the SDK client checked it (outputSchema included). */
export async function callTool(
  c: Connected,
  name: string,
  args: Record<string, unknown> = {},
  meta?: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await c.client.callTool({
    name,
    arguments: args,
    ...(meta ? { _meta: meta } : {}),
  })) as CallToolResult;
}

/** The error envelope of a failed tool result. */
export function envelopeOf(result: CallToolResult): Record<string, string> {
  if (!result.isError) throw new Error(`expected an error result, got ${JSON.stringify(result)}`);
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('error result without text');
  return JSON.parse(first.text) as Record<string, string>;
}

const NOTES_MCP_BIN = path.resolve('bin/notes-mcp.js');

/** The local notes server as an MCP client configuration starts it: one command, two variables. */
export async function connectLocal(
  base: string,
  token: string,
  env: Record<string, string> = {},
): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [NOTES_MCP_BIN],
    env: { PATH: process.env.PATH ?? '', NOTES_BASE_URL: base, NOTES_ACCESS_TOKEN: token, ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'local-test-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport: transport as never, close: () => client.close() };
}
