/**
 * Sign-in codes over SMTP (SMTP_URL): nodemailer delivers to a real SMTP server on 127.0.0.1
 * (smtp-server, the library nodemailer's authors ship for this), with authentication; the code
 * read from the delivered message finishes the OAuth flow. A mail server that refuses the
 * message gives the user a page that says so, not a 500.
 */
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { SMTPServer } from 'smtp-server';
import { feedbackAuthPreset } from '../../src/auth/index.js';
import { authorizeOverHttp, CookieJar, formIn, request } from './support/browserless.js';
import { exchange, registerClient, startAuthorization } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';

interface Delivered {
  from: string;
  to: string[];
  raw: string;
  user: string | undefined;
}

const SMTP_USER = 'board-mailer';
const SMTP_PASS = 'mailer-secret';

async function startSmtp(opts: { refuse?: boolean } = {}) {
  const delivered: Delivered[] = [];
  const waiting: (() => void)[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASS)
        callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (opts.refuse) {
          callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
          return;
        }
        delivered.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: session.user as string | undefined,
        });
        for (const wake of waiting.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    delivered,
    /** the six-digit code of the newest message to `email` */
    async codeFor(email: string): Promise<string> {
      for (let i = 0; i < 50; i++) {
        const message = delivered.findLast((m) => m.to.includes(email));
        const code = message && /sign-in code: (\d{6})/.exec(message.raw)?.[1];
        if (code) return code;
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      throw new Error(`no code delivered to ${email}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('When sign-in codes go out over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let h: Harness;
  before(async () => {
    smtp = await startSmtp();
    h = await startHarness({
      ...feedbackAuthPreset,
      serviceName: 'Feedback',
      smtp: {
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        user: SMTP_USER,
        pass: SMTP_PASS,
        from: 'Feedback board <no-reply@board.test>',
      },
    });
  });
  after(async () => {
    await h.close();
    await smtp.close();
  });

  it('delivers the code, authenticated, from the configured sender; the code signs the maker in', async () => {
    const email = 'smtp-maker@example.com';
    const config = await registerClient(h.base);
    const pending = await startAuthorization(config, h.base, 'openid email');
    const callback = await authorizeOverHttp({
      authUrl: pending.url,
      base: h.base,
      email,
      mailboxPath: h.mailboxPath,
      codeFor: (to) => smtp.codeFor(to),
    });
    const message = smtp.delivered.findLast((m) => m.to.includes(email));
    expect(message?.from).to.equal('no-reply@board.test');
    expect(message?.user, 'the server saw the configured credentials').to.equal(SMTP_USER);
    expect(message?.raw).to.match(/^Subject: Your Feedback sign-in code: \d{6}/m);
    const tokens = await exchange(config, callback, pending);
    expect(tokens.claims()?.sub).to.equal(h.accounts.byEmail.get(email));
  });
});

describe('When the mail server refuses the sign-in code', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let h: Harness;
  before(async () => {
    smtp = await startSmtp({ refuse: true });
    h = await startHarness({
      ...feedbackAuthPreset,
      serviceName: 'Feedback',
      smtp: {
        host: '127.0.0.1',
        port: smtp.port,
        user: SMTP_USER,
        pass: SMTP_PASS,
        from: 'no-reply@board.test',
      },
    });
  });
  after(async () => {
    await h.close();
    await smtp.close();
  });

  it('shows the e-mail form again with a 503 that says the code could not be sent', async () => {
    const config = await registerClient(h.base);
    const pending = await startAuthorization(config, h.base, 'openid email');
    const jar = new CookieJar();
    let res = await request(jar, pending.url);
    for (let hops = 0; hops < 5 && res.status >= 300 && res.status < 400; hops++)
      res = await request(jar, new URL(res.headers.get('location') ?? '', h.base).href);
    const form = formIn(await res.text(), h.base, '/email');
    const answer = await request(jar, form.action, { ...form.fields, email: 'x@example.com' });
    expect(answer.status).to.equal(503);
    const html = await answer.text();
    expect(html).to.include('could not be sent right now');
    expect(html, 'the e-mail form, not the code form').to.include('/email"');
    expect(html).to.not.include('/code"');
    expect(smtp.delivered).to.have.length(0);
  });
});
