/**
 * Issue 10 item 1: "Sign-in codes can be brute-forced. ... Required: limits on issuing codes and
 * on wrong guesses per e-mail address and per client IP that hold across authorization requests
 * (... at most 5 codes per address per 15 minutes and 10 wrong guesses per address per hour,
 * then a lockout that grows), kept in the store ...; a clear page with HTTP 429 when throttled.
 * Test: the same loop (authorize → e-mail form → 5 wrong codes, repeated) cannot get past the
 * limit, and a right code during a lockout is refused."
 */
import { expect } from 'chai';
import { DEFAULT_SIGN_IN_LIMITS, feedbackAuthPreset } from '../../src/auth/index.js';
import { latestCode, request } from './support/browserless.js';
import { registerClient } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';
import { askForCode as askForSignInCode, mailedCodes } from './support/sign-in.js';

const MINUTE = 60_000;

describe('When somebody tries to guess sign-in codes', () => {
  let h: Harness;
  let offset = 0;
  let clientConfig: Awaited<ReturnType<typeof registerClient>>;
  beforeEach(async () => {
    offset = 0;
    h = await startHarness({
      ...feedbackAuthPreset,
      signInLimits: DEFAULT_SIGN_IN_LIMITS,
      now: () => Date.now() + offset,
    });
    clientConfig = await registerClient(h.base);
  });
  afterEach(async () => h.close());

  const askForCode = (email: string) => askForSignInCode(h, clientConfig, email);

  const mails = () => mailedCodes(h.mailboxPath).length;

  it('cannot get past the limit by repeating authorize → e-mail form → 5 wrong codes', async () => {
    const statuses: number[] = [];
    let compared = 0;
    for (let round = 0; round < 5; round++) {
      const { refused, jar, codeForm } = await askForCode('victim@example.com');
      if (!codeForm) {
        statuses.push(refused?.status ?? 0);
        continue;
      }
      for (let guess = 0; guess < 5; guess++) {
        const res = await request(jar, codeForm.action, { ...codeForm.fields, code: '000000' });
        statuses.push(res.status);
        if (res.status === 400) compared++;
        if (res.status === 429) break;
      }
    }
    // "10 wrong guesses per address per hour, then a lockout": the 10th starts it
    expect(compared).to.equal(9);
    expect(statuses.filter((s) => s === 429)).to.have.length(4);
    expect(statuses.at(-1)).to.equal(429);
    expect(mails(), 'no code is sent during the lockout').to.equal(2);
  });

  it('refuses the right code during a lockout, with a clear 429 page and Retry-After', async () => {
    const early = await askForCode('victim@example.com');
    const rightCode = latestCode(h.mailboxPath, 'victim@example.com');
    for (let round = 0; round < 2; round++) {
      const { jar, codeForm } = await askForCode('victim@example.com');
      for (let guess = 0; guess < 5 && codeForm; guess++) {
        await request(jar, codeForm.action, { ...codeForm.fields, code: '999999' });
      }
    }
    const res = await request(early.jar, early.codeForm!.action, {
      ...early.codeForm!.fields,
      code: rightCode,
    });
    expect(res.status).to.equal(429);
    expect(Number(res.headers.get('retry-after'))).to.be.within(14 * 60, 15 * 60);
    const page = await res.text();
    expect(page).to.include('Too many wrong sign-in codes');
    expect(page).to.include('Try again in 15 minutes');
    expect(res.headers.get('location')).to.equal(null);
  });

  it('makes each further lockout last longer (15, then 30 minutes)', async () => {
    const lockOut = async () => {
      let last: Response | null = null;
      for (let round = 0; round < 2; round++) {
        const { jar, codeForm } = await askForCode('victim@example.com');
        for (let guess = 0; guess < 5 && codeForm; guess++) {
          last = await request(jar, codeForm.action, { ...codeForm.fields, code: '123123' });
        }
      }
      return Number(last?.headers.get('retry-after'));
    };
    expect(await lockOut()).to.equal(15 * 60);
    offset += 16 * MINUTE;
    expect(await lockOut()).to.equal(30 * 60);
  });

  it('sends at most 5 codes to one address in any 15 minutes', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await askForCode('busy@example.com')).codeForm).not.to.equal(null);
    }
    const { refused } = await askForCode('busy@example.com');
    expect(refused?.status).to.equal(429);
    expect(Number(refused?.headers.get('retry-after'))).to.be.within(1, 15 * 60);
    expect(await refused?.text()).to.include('Too many sign-in codes');
    expect(mails()).to.equal(5);
    offset += 15 * MINUTE + 1000;
    expect((await askForCode('busy@example.com')).codeForm).not.to.equal(null);
  });

  it('counts an address as one however its letters are cased', async () => {
    // commands/shared/email.ts: "`Ana@Example.com ` and `ana@example.com` are one person" —
    // so they are one address for "at most 5 codes per address per 15 minutes" too
    const spellings = ['busy@example.com', 'Busy@example.com', 'BUSY@example.com'];
    for (const email of [...spellings, 'busy@EXAMPLE.com', ' Busy@Example.Com ']) {
      expect((await askForCode(email)).codeForm, email).not.to.equal(null);
    }
    const { refused } = await askForCode('bUsY@example.com');
    expect(refused?.status).to.equal(429);
    expect(mails()).to.equal(5);
  });

  it('counts no right code among the wrong ones: 9 wrong, a right one, then the 10th wrong starts the lockout', async () => {
    // the place a code holds among the wrong ones while it is compared is given back if it was right
    const wrongCodes = async (count: number) => {
      const { jar, codeForm } = await askForCode('victim@example.com');
      expect(codeForm, 'a code is sent: no lockout yet').not.to.equal(null);
      const statuses: number[] = [];
      for (let guess = 0; guess < count; guess++) {
        const res = await request(jar, codeForm!.action, { ...codeForm!.fields, code: '000000' });
        statuses.push(res.status);
      }
      return statuses;
    };
    expect([...(await wrongCodes(5)), ...(await wrongCodes(4))]).to.deep.equal(Array(9).fill(400));
    const { jar, codeForm } = await askForCode('victim@example.com');
    const right = latestCode(h.mailboxPath, 'victim@example.com');
    const signedIn = await request(jar, codeForm!.action, { ...codeForm!.fields, code: right });
    expect(signedIn.status).to.equal(303);
    expect(await wrongCodes(1), 'the 10th wrong code').to.deep.equal([429]);
  });
});
