/**
 * The access log's paths name no sign-in: oidc-provider's interaction id is in the path of every
 * sign-in page (`/oauth/interaction/<uid>…`) and of the resume (`/oauth/authorize/<uid>`), and it is
 * the value of the `_interaction` cookie that carries the sign-in — whoever reads the log could
 * resume or finish a sign-in in flight. It is logged as `:uid`.
 */
import { expect } from 'chai';
import { logLines } from '../support/log-lines.js';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { connectClient } from '../feedback/support/oauth.js';

describe('When a person signs in through the OAuth pages (e2e)', () => {
  const log = logLines();
  let fb: FeedbackHarness;

  before(async () => {
    fb = await startFeedback({ env: { LOG_LEVEL: 'info' }, logger: log.logger });
    await fb.createMaker('ida@acme.io');
    await connectClient(fb, { email: 'ida@acme.io', scope: 'openid' });
  });
  after(() => fb.stop());

  it('logs the interaction pages with `:uid` in place of the interaction id', async () => {
    const paths = log.lines.filter((l) => l.msg === 'request').map((l) => String(l.path));
    const signIn = paths.filter((p) => /^\/oauth\/(interaction|authorize)\//.test(p));
    expect(signIn, 'the sign-in pages and their resume were logged').to.include.members([
      '/oauth/interaction/:uid',
      '/oauth/interaction/:uid/email',
      '/oauth/interaction/:uid/code',
      '/oauth/interaction/:uid/confirm',
      '/oauth/authorize/:uid',
    ]);
    for (const path of signIn)
      expect(path).to.match(/^\/oauth\/(interaction|authorize)\/:uid(\/|$)/);
  });
});
