/**
 * The one-time e-mail sign-in code itself (src/auth/interaction/email-code.ts). README (Security,
 * Sign-in throttles): "E-mail sign-in sends a 6-digit code valid 10 minutes, 5 tries per code,
 * compared in constant time." A shorter code, a longer life or a sixth try would each hand a
 * guesser more chances than the throttles are figured for.
 */
import { expect } from 'chai';
import { feedbackAuthPreset } from '../../src/auth/index.js';
import { request } from './support/browserless.js';
import { registerClient } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';
import { askForCode, atEmailForm, mailedCodes } from './support/sign-in.js';

const MINUTE = 60_000;

describe('When a person asks for a sign-in code', () => {
  let h: Harness;
  let offset = 0;
  let config: Awaited<ReturnType<typeof registerClient>>;
  before(async () => {
    h = await startHarness({ ...feedbackAuthPreset, now: () => Date.now() + offset });
    config = await registerClient(h.base);
  });
  beforeEach(() => {
    offset = 0;
  });
  after(async () => h.close());

  /** a code sent for a fresh sign-in: its form, and the code the mail carried */
  async function codeSent(email: string) {
    const sent = await askForCode(h, config, email);
    const codeForm = sent.codeForm as NonNullable<typeof sent.codeForm>;
    return { jar: sent.jar, codeForm, code: mailedCodes(h.mailboxPath).at(-1) as string };
  }

  /** a code accepted: the sign-in goes on to the authorization endpoint */
  const signedIn = (res: Response) =>
    res.status === 303 && (res.headers.get('location') ?? '').includes('/oauth/authorize');

  it('mails six digits, drawn from all million codes', async () => {
    const { jar, emailForm } = await atEmailForm(h, config);
    const before = mailedCodes(h.mailboxPath).length;
    for (let i = 0; i < 60; i++) {
      const res = await request(jar, emailForm.action, { ...emailForm.fields, email: 'six@a.io' });
      expect(res.status).to.equal(303);
    }
    const codes = mailedCodes(h.mailboxPath).slice(before);
    expect(codes).to.have.length(60);
    for (const code of codes) expect(code).to.match(/^\d{6}$/);
    // a code below 100000 (one in ten) is padded, not shortened; the leading digit is not fixed
    // (all sixty leading with 0 would happen once in 10^60 with all million codes in play)
    expect(codes.some((code) => !code.startsWith('0'))).to.equal(true);
    expect(new Set(codes).size).to.be.greaterThan(50);
  });

  it('takes the right code just before 10 minutes are up', async () => {
    const { jar, codeForm, code } = await codeSent('in-time@a.io');
    offset = 10 * MINUTE - 5000;
    const res = await request(jar, codeForm.action, { ...codeForm.fields, code });
    expect(signedIn(res), `${res.status} ${res.headers.get('location')}`).to.equal(true);
  });

  it('refuses the right code once 10 minutes are up, and asks for a new one', async () => {
    const { jar, codeForm, code } = await codeSent('late@a.io');
    offset = 10 * MINUTE + 1000;
    const res = await request(jar, codeForm.action, { ...codeForm.fields, code });
    expect(res.status).to.equal(400);
    const page = await res.text();
    expect(page).to.include('expired or was tried too often');
    expect(page, 'the e-mail form again, not the code form').to.include('/email"');
  });

  it('refuses the right code on a sixth try, after five wrong ones', async () => {
    const { jar, codeForm, code } = await codeSent('five@a.io');
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await request(jar, codeForm.action, { ...codeForm.fields, code: wrong });
      expect(res.status).to.equal(400);
    }
    const sixth = await request(jar, codeForm.action, { ...codeForm.fields, code });
    expect(sixth.status).to.equal(400);
    expect(await sixth.text()).to.include('expired or was tried too often');
  });

  it('takes the code with the spaces a paste from the mail brings', async () => {
    // no README line: what a person copying the code out of the mail sends
    const { jar, codeForm, code } = await codeSent('paste@a.io');
    const res = await request(jar, codeForm.action, { ...codeForm.fields, code: ` ${code} ` });
    expect(signedIn(res), `${res.status}`).to.equal(true);
  });

  it('tells an entry that is no code what a code is, and counts it as no try', async () => {
    // README (Sign-in throttles): "5 tries per code"; what is not 6 digits is not a try at one
    const { jar, codeForm, code } = await codeSent('typo@a.io');
    for (const typed of ['12345', '1234567', 'abcdef', `${code}x`, '', ` ${code.slice(1)} `]) {
      const res = await request(jar, codeForm.action, { ...codeForm.fields, code: typed });
      expect(res.status, JSON.stringify(typed)).to.equal(400);
      expect(await res.text()).to.include('The code is the 6 digits in the e-mail we sent');
    }
    const res = await request(jar, codeForm.action, { ...codeForm.fields, code });
    expect(signedIn(res), `six entries that were no code spent no try: ${res.status}`).to.equal(
      true,
    );
  });

  it('keeps no code past its 10 minutes: the next one sent clears the expired ones', async () => {
    // a code of an abandoned sign-in would otherwise stay in the store for good
    const stored = () => h.readStore().collection('oauth_email_codes').countDocuments({});
    await codeSent('abandoned@a.io');
    offset = 10 * MINUTE + 1000;
    await codeSent('next@a.io');
    expect(await stored()).to.equal(1);
  });

  it('takes a code once: sent again, it signs nobody in', async () => {
    const { jar, codeForm, code } = await codeSent('once@a.io');
    const first = await request(jar, codeForm.action, { ...codeForm.fields, code });
    expect(signedIn(first)).to.equal(true);
    const again = await request(jar, codeForm.action, { ...codeForm.fields, code });
    expect(signedIn(again), `${again.status} ${again.headers.get('location')}`).to.equal(false);
  });
});
