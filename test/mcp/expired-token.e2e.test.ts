/**
 * An access token an MCP client got for the endpoint (through the SDK's OAuth flow), once it has
 * expired: 401 with the challenge that sends the client back to sign in.
 *
 * MCP authorization (2025-06-18), Token Handling: "Invalid or expired tokens MUST receive a HTTP
 * 401 response"; servers "MUST use the HTTP header WWW-Authenticate when returning a 401
 * Unauthorized to indicate the location of the resource server metadata URL". RFC 6750 §3.1:
 * invalid_token — "The access token provided is expired, revoked, malformed, or invalid for other
 * reasons." README (MCP servers, Authorization): 401 with `WWW-Authenticate: Bearer
 * resource_metadata="{base}/.well-known/oauth-protected-resource/mcp"` "(plus
 * `error="invalid_token"` when one was refused)".
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import { connectFromNothing, recordingFetch } from './oauth-client.js';
import { postToolsList } from './support.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The SDK client connecting with `token`: refused; what the endpoint answered its first POST. */
async function refusedConnection(base: string, token: string) {
  const recorded = recordingFetch();
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: recorded.fetchFn,
  });
  const client = new Client({ name: 'stale-assistant', version: '1.0.0' });
  const failed = await client.connect(transport).then(
    () => false,
    () => true,
  );
  await client.close();
  expect(failed, 'the SDK client could not connect').to.equal(true);
  const first = recorded.log.find((r) => r.method === 'POST' && r.url === `${base}/mcp`);
  expect(first, JSON.stringify(recorded.log)).to.not.equal(undefined);
  return first!;
}

/** Asserts the endpoint answers `token` as expired, to the SDK client and over plain HTTP. */
async function expectExpired(base: string, token: string): Promise<void> {
  const refused = await refusedConnection(base, token);
  expect(refused.status).to.equal(401);
  expect(refused.challenge).to.equal(
    `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`,
  );
  const res = await postToolsList(`${base}/mcp`, { authorization: `Bearer ${token}` });
  expect(res.status).to.equal(401);
  expect(((await res.json()) as { error: string }).error).to.match(/expired/);
}

describe('When an MCP client calls with an access token that has expired', function () {
  this.timeout(120_000);

  describe('When it is a feedback board token for the endpoint (one hour)', () => {
    let fb: FeedbackHarness;
    before(async () => {
      fb = await startFeedback();
    });
    after(() => fb?.stop());

    it('answers 401 with WWW-Authenticate naming the metadata and error="invalid_token"', async () => {
      const owner = await fb.createMaker('stale@acme.io');
      const { client, provider } = await connectFromNothing({
        base: fb.url,
        email: owner.email,
        mailboxPath: fb.mailboxPath,
        clientName: 'Stale Assistant',
      });
      await client.close();
      const token = provider.tokens()!.access_token;
      expect(decodeJwt(token).aud).to.equal(`${fb.url}/mcp`);
      fb.clock.advance(59 * 60_000);
      const before = await postToolsList(`${fb.url}/mcp`, { authorization: `Bearer ${token}` });
      expect(before.status, 'still valid a minute before its expiry').to.equal(200);
      fb.clock.advance(2 * 60_000);
      await expectExpired(fb.url, token);
    });
  });

  describe('When it is a notes token for the endpoint (30 days)', () => {
    let notes: NotesE2e;
    const realNow = Date.now;
    let offsetMs = 0;
    before(async () => {
      // oidc-provider and jose read Date.now: shifting it ages every token (as oauth.e2e does)
      Date.now = () => realNow() + offsetMs;
      notes = await startNotesE2e();
    });
    after(async () => {
      Date.now = realNow;
      await notes?.stop();
    });

    it('answers 401 with WWW-Authenticate naming the metadata and error="invalid_token"', async () => {
      const { client, provider } = await connectFromNothing({
        base: notes.base,
        email: 'stale@example.com',
        mailboxPath: notes.mailboxPath,
        clientName: 'Stale Notes Assistant',
      });
      await client.close();
      const token = provider.tokens()!.access_token;
      expect(decodeJwt(token).aud).to.equal(`${notes.base}/mcp`);
      offsetMs = 30 * DAY_MS - 60_000;
      const before = await postToolsList(`${notes.base}/mcp`, {
        authorization: `Bearer ${token}`,
      });
      expect(before.status, 'still valid a minute before its expiry').to.equal(200);
      offsetMs = 30 * DAY_MS + 60_000;
      await expectExpired(notes.base, token);
    });
  });
});
