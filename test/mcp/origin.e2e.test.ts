/**
 * MCP Streamable HTTP transport (2025-11-25), security: "Servers MUST validate the Origin header
 * on all incoming connections to prevent DNS rebinding attacks. If the Origin header is present
 * and invalid, servers MUST respond with HTTP 403 Forbidden." Valid here: the service's own
 * origins and those of MCP_ALLOWED_ORIGINS; a request without Origin (a non-browser client) is
 * not concerned.
 */
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import { postToolsList } from './support.js';

const INSPECTOR = 'https://inspector.example';

const listTools = (base: string, headers: Record<string, string>) =>
  postToolsList(`${base}/mcp`, headers);

describe('The hosted MCP endpoints and the Origin header', function () {
  this.timeout(60_000);

  describe('When a request to the feedback board carries an Origin', () => {
    let fb: FeedbackHarness;
    let bearer: Record<string, string>;
    before(async () => {
      fb = await startFeedback({ env: { MCP_ALLOWED_ORIGINS: INSPECTOR } });
      bearer = { authorization: `Bearer ${(await fb.createMaker('max@acme.io')).token}` };
    });
    after(() => fb?.stop());

    it('answers 403 for any other origin, before looking at the credential', async () => {
      for (const headers of [{ ...bearer }, {}]) {
        const res = await listTools(fb.url, { ...headers, origin: 'http://evil.example' });
        expect(res.status).to.equal(403);
        const body = (await res.json()) as { error: { code: number; message: string } };
        expect(body.error.code).to.equal(-32000);
        expect(body.error.message).to.include('http://evil.example');
      }
      // a rebound name is the service's address under another name: still another origin
      const port = new URL(fb.url).port;
      const rebound = await listTools(fb.url, {
        ...bearer,
        origin: `http://attacker.test:${port}`,
      });
      expect(rebound.status).to.equal(403);
    });

    it("serves its own origin, MCP_ALLOWED_ORIGINS' and requests without Origin", async () => {
      for (const origin of [new URL(fb.url).origin, INSPECTOR, undefined]) {
        const res = await listTools(fb.url, { ...bearer, ...(origin ? { origin } : {}) });
        expect(res.status, String(origin)).to.equal(200);
        const body = (await res.json()) as { result: { tools: unknown[] } };
        expect(body.result.tools.length).to.be.greaterThan(0);
      }
    });
  });

  describe('When a request to the notes service carries an Origin', () => {
    let notes: NotesE2e;
    before(async () => {
      notes = await startNotesE2e();
    });
    after(() => notes?.stop());

    it('accepts both of its hosts and refuses any other', async () => {
      for (const base of [notes.base, notes.altBase]) {
        // no token: past the Origin check, the credential is what is refused
        const res = await listTools(base, { origin: new URL(base).origin });
        expect(res.status, base).to.equal(401);
      }
      const res = await listTools(notes.base, { origin: INSPECTOR });
      expect(res.status).to.equal(403);
    });
  });
});
