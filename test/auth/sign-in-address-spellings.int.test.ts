/**
 * The counts of codes sent to one address count its mailbox, however the address is spelt
 * (src/auth/interaction/throttle.ts `mailboxOf`). README (Security, Sign-in throttles): "| codes
 * sent to one address | 5 per 15 min |", a daily 20, because "Without it the 15-minute windows
 * let anyone, from enough IPs, have each page mail one address about 480 codes a day". Letter
 * case, a `+tag`, a domain's trailing dot, white space, full-width letters and an international
 * domain written as its A-label reach the same mailbox: counted apart, each was another 5 (and
 * 20 a day) of mails to one person. Each client
 * IP here is an X-Forwarded-For entry (trust proxy on), so only the address's count can refuse.
 */
import { expect } from 'chai';
import { DEFAULT_SIGN_IN_LIMITS, feedbackAuthPreset } from '../../src/auth/index.js';
import { registerClient } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';
import { askForCode, mailedCodes } from './support/sign-in.js';

describe('When codes are asked for one mailbox under other spellings of its address', () => {
  let h: Harness;
  let config: Awaited<ReturnType<typeof registerClient>>;
  let ip = 0;
  before(async () => {
    h = await startHarness({
      ...feedbackAuthPreset,
      signInLimits: DEFAULT_SIGN_IN_LIMITS,
      trustProxy: true,
    });
    config = await registerClient(h.base);
  });
  after(async () => h.close());

  const ask = (email: string) =>
    askForCode(h, config, email, { 'x-forwarded-for': `203.0.113.${++ip}` });

  it('refuses every spelling once the address has had its 5, and mails none of them', async () => {
    for (let n = 0; n < 5; n++) {
      expect((await ask('victim@mail.example')).codeForm, `code ${n + 1}`).to.not.equal(null);
    }
    const sent = mailedCodes(h.mailboxPath).length;
    for (const spelling of [
      'Victim@Mail.Example',
      'victim+1@mail.example',
      'victim+again@mail.example',
      'victim@mail.example.',
      ' victim@mail.example ',
      'ｖｉｃｔｉｍ@ｍａｉｌ.ｅｘａｍｐｌｅ',
    ]) {
      const { refused } = await ask(spelling);
      expect(refused?.status, spelling).to.equal(429);
      expect(Number(refused?.headers.get('retry-after')), spelling).to.be.within(1, 15 * 60);
    }
    expect(mailedCodes(h.mailboxPath).length).to.equal(sent);
    // an international domain is one domain in Unicode and as its A-label (IDNA)
    for (let n = 0; n < 5; n++)
      expect((await ask('ana@bücher.example')).codeForm).to.not.equal(null);
    expect((await ask('ana@xn--bcher-kva.example')).refused?.status).to.equal(429);
    // another mailbox of that domain is not counted with it
    expect((await ask('victim2@mail.example')).codeForm).to.not.equal(null);
    expect((await ask('other+victim@mail.example')).codeForm).to.not.equal(null);
  });
});
