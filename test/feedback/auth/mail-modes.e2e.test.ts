/**
 * Issue 10 item 2: "/dev/mailbox shows every sign-in code to anyone who can reach the service
 * whenever SMTP_URL is unset ... Required: the dev mailbox exists only in an explicit development
 * mode and answers only loopback clients".
 */
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
});
