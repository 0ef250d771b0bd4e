/**
 * README (Logs): LOG_FORMAT=json writes one JSON object per line, which a log shipper reads as
 * such. oidc-provider writes its own notices as plain text on the console (the Node.js version it
 * was imported on; a request body our steps read before it); they are entries of the process's
 * logger instead (src/platform/library-notices.ts). The real entry point, as an operator runs it.
 */
import { rmSync } from 'node:fs';
import { once } from 'node:events';
import { expect } from 'chai';
import { startProcess } from '../support/processes.js';
import { tempDir } from '../support/stores.js';

describe('When the service logs as JSON and a client registers and asks for a token (e2e)', function () {
  this.timeout(60_000);
  const dir = tempDir('json-logs-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes only JSON lines on stderr, and on stdout only where each service listens', async () => {
    const { child, url } = await startProcess(dir, { LOG_FORMAT: 'json', LOG_LEVEL: 'info' });
    let stderr = '';
    let stdout = '';
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
    });
    try {
      // our registration policy reads the JSON body before oidc-provider does
      const registered = await fetch(`${url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          redirect_uris: ['http://127.0.0.1:9/cb'],
          token_endpoint_auth_method: 'none',
        }),
      });
      expect(registered.status).to.equal(201);
      const { client_id } = (await registered.json()) as { client_id: string };
      const token = await fetch(`${url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'not-a-code',
          code_verifier: 'x'.repeat(43),
          redirect_uri: 'http://127.0.0.1:9/cb',
          client_id,
        }),
      });
      expect(token.status).to.equal(400);
      const revoked = await fetch(`${url}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: 'not-a-token', client_id }),
      });
      expect(revoked.status).to.equal(200);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    const lines = stderr.split('\n').filter((line) => line !== '');
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object';
      } catch {
        return true;
      }
    });
    expect(notJson, 'stderr lines that are not JSON').to.deep.equal([]);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      entries.some((e) => e.source === 'oidc-provider' && /already parsed/.test(String(e.msg))),
      'oidc-provider’s notice is an entry of the log',
    ).to.equal(true);
    expect(
      entries.some((e) => e.msg === 'request'),
      'the access lines are there',
    ).to.equal(true);
    // README: stdout gets `feedback: <url>` and `notes: <url>` once every role has started
    for (const line of stdout.split('\n').filter((l) => l !== ''))
      expect(line).to.match(/^(feedback|notes): http:\/\/\S+$/);
  });
});
