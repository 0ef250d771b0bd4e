/**
 * A sign-in code the mail server does not take is a failure the operator must see: the audit
 * found "[auth] sign-in code not sent: connect ECONNREFUSED" logged at info, below a production
 * LOG_LEVEL=warn, while the board's own mail outage is a warning. README (Logs, metrics,
 * shutdown): "the sign-in pages' failures … are warnings".
 */
import { createServer } from 'node:net';
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { authorizeClient } from '../feedback/support/oauth.js';
import { logLines } from '../support/log-lines.js';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('When the mail server refuses a sign-in code', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  const log = logLines('info');
  before(async () => {
    fb = await startFeedback({
      logger: log.logger,
      env: { LOG_LEVEL: 'info', SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` },
    });
  });
  after(() => fb?.stop());

  it('logs why at warn, not info', async () => {
    const refused = await authorizeClient(fb, { email: 'nomail@example.com' }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refused).to.match(/unexpected 503/);
    const line = await log.find((l) => String(l.msg).startsWith('[auth] sign-in code not sent'));
    expect(line, 'no line for the unsent code').to.include({ level: 'warn' });
    expect(line!.msg).to.match(/ECONNREFUSED/);
  });
});
