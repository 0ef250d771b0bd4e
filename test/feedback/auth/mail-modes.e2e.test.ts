/**
 * Issue 10 item 2: "/dev/mailbox shows every sign-in code to anyone who can reach the service
 * whenever SMTP_URL is unset ... Required: the dev mailbox exists only in an explicit development
 * mode and answers only loopback clients".
 */
import { request } from 'node:http';
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../support/harness.js';

describe('When the service mails sign-in codes over SMTP (no development mode)', () => {
  let fb: FeedbackHarness;
  before(async () => {
    fb = await startFeedback({ env: { DEV_MODE: 'false', SMTP_URL: 'smtp://127.0.0.1:9' } });
  });
  after(() => fb.stop());

  it('has no dev mailbox: /dev/mailbox answers 404 in the error envelope', async () => {
    const res = await fetch(`${fb.url}/dev/mailbox`);
    expect(res.status).to.equal(404);
    expect(await res.json()).to.have.property('code', 'not-found');
  });
});

describe('When the service runs in explicit development mode', () => {
  let fb: FeedbackHarness;
  before(async () => {
    fb = await startFeedback({ env: { DEV_MODE: 'true' } });
  });
  after(() => fb.stop());

  it('shows the dev mailbox to a browser on this machine', async () => {
    const res = await fetch(`${fb.url}/dev/mailbox`);
    expect(res.status).to.equal(200);
    expect(await res.text()).to.include('Dev mailbox');
  });

  it('does not show it to a request relayed by a proxy (the client is not local)', async () => {
    const relayed: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.7' },
      { forwarded: 'for=203.0.113.7' },
      { 'x-real-ip': '203.0.113.7' },
    ];
    for (const header of relayed) {
      const res = await fetch(`${fb.url}/dev/mailbox`, { headers: header });
      expect(res.status, JSON.stringify(header)).to.equal(404);
    }
  });

  it('does not show it to a page of another site whose name was rebound to 127.0.0.1', async () => {
    // security audit: DNS rebinding makes evil.test resolve to 127.0.0.1, so a page in the
    // developer's browser reaches the loopback socket, with Host: evil.test; it would read the
    // sign-in codes of every user of the dev instance
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${fb.url}/dev/mailbox`, { headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    const port = new URL(fb.url).port;
    expect(await status(`evil.test:${port}`)).to.equal(404);
    expect(await status('evil.test')).to.equal(404);
    for (const local of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      expect(await status(local), local).to.equal(200);
    }
  });
});
