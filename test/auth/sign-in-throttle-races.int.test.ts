/**
 * Wrong codes for one address that arrive together, across sign-ins. README (Security, Sign-in
 * throttles): "| wrong codes for one address | 10 per hour, then a lockout |". The throttle used
 * to ask whether the address was locked out, compare the code, and only then count it: codes
 * submitted together all found the address free and were all compared, the 11th to the 15th as
 * well, before the 10th started the lockout. Here the store holds each submission's first read
 * of the codes (is a code pending) until all have arrived, so they pass the throttle together
 * whatever the timing; everything else runs as in production.
 */
import { expect } from 'chai';
import { DEFAULT_SIGN_IN_LIMITS } from '../../src/auth/index.js';
import { request } from './support/browserless.js';
import { registerClient } from './support/client.js';
import { harnessWithHeldReads } from './support/held-harness.js';
import { askForCode, mailedCodes } from './support/sign-in.js';

const CODES = 'oauth_email_codes';
const EMAIL = 'together@example.com';

describe('When wrong codes for one address arrive together from several sign-ins', function () {
  this.timeout(60_000);
  const held = harnessWithHeldReads({ signInLimits: DEFAULT_SIGN_IN_LIMITS });
  const { reads } = held;

  it('compares no more than 10 of them: the tries counted on the codes add up to 10', async () => {
    const config = await registerClient(held.h.base);
    const submits: (() => Promise<Response>)[] = [];
    // three codes sent (5 per 15 minutes allowed), each with its 5 tries: 15 guesses in all
    for (let signIn = 0; signIn < 3; signIn++) {
      const sent = await askForCode(held.h, config, EMAIL);
      const form = sent.codeForm as NonNullable<typeof sent.codeForm>;
      const code = mailedCodes(held.h.mailboxPath).at(-1) as string;
      const wrong = code === '000000' ? '000001' : '000000';
      for (let i = 0; i < 5; i++)
        submits.push(() => request(sent.jar, form.action, { ...form.fields, code: wrong }));
    }

    const met = reads.hold(CODES, submits.length);
    const answers = Promise.all(submits.map((submit) => submit()));
    for (const release of await met) release();
    const statuses = (await answers).map((res) => res.status);

    const codes = await held.h.readStore().collection(CODES).find({});
    const compared = codes.reduce((sum, doc) => sum + Number(doc.attempts), 0);
    expect(compared, `statuses ${statuses.join(' ')}`).to.equal(10);
    // the 10th started the lockout: no code is sent to the address now
    const after = await askForCode(held.h, config, EMAIL);
    expect(after.refused?.status).to.equal(429);
  });
});
