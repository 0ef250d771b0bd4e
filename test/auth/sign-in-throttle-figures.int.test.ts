/**
 * The sign-in throttles' figures, each at its edge (src/auth/interaction/throttle.ts). README
 * (Security, Sign-in throttles), the defaults:
 *
 *   | codes sent to one address   | 5 per 15 min |
 *   | codes requested from one IP | 20 per 15 min |
 *   | wrong codes for one address | 10 per hour, then a lockout |
 *   | wrong codes from one IP     | 30 per hour, then a lockout |
 *   | lockout | 15 min, doubling with each repeat (30, 60 … ) up to 24 h; forgotten after 24 h without one |
 *
 * "During a lockout no code is sent and none is accepted, not even the right one."
 * Each client IP here is an X-Forwarded-For entry (trust proxy on), so one figure is met at a time.
 */
import { expect } from 'chai';
import { DEFAULT_SIGN_IN_LIMITS, feedbackAuthPreset } from '../../src/auth/index.js';
import { request } from './support/browserless.js';
import { registerClient } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';
import { askForCode, mailedCodes } from './support/sign-in.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('When the sign-in throttles meet their figures', () => {
  let h: Harness;
  let offset = 0;
  let config: Awaited<ReturnType<typeof registerClient>>;
  beforeEach(async () => {
    offset = 0;
    h = await startHarness({
      ...feedbackAuthPreset,
      signInLimits: DEFAULT_SIGN_IN_LIMITS,
      trustProxy: true,
      now: () => Date.now() + offset,
    });
    config = await registerClient(h.base);
  });
  afterEach(async () => h.close());

  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  const ask = (email: string, ip: string) => askForCode(h, config, email, from(ip));

  /** a code for `email` from `ip`, then `times` wrong guesses at it: their statuses and the last answer */
  async function guessWrong(email: string, ip: string, times: number) {
    const { codeForm, jar } = await ask(email, ip);
    if (!codeForm) throw new Error(`no code sent to ${email}`);
    // six digits, not the one mailed: an entry that is no code costs no try (codeDigits)
    const code = mailedCodes(h.mailboxPath).at(-1) === '000000' ? '000001' : '000000';
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < times; i++) {
      last = await request(jar, codeForm.action, { ...codeForm.fields, code }, from(ip));
      statuses.push(last.status);
    }
    return { statuses, last: last as Response };
  }

  /** ten wrong codes for `email` (two codes of five tries): the lockout's Retry-After */
  async function lockOut(email: string, ip: string): Promise<number> {
    // a client nobody approved lives 24 hours on this clock: the later rounds need a new one
    config = await registerClient(h.base);
    const first = await guessWrong(email, ip, 5);
    const second = await guessWrong(email, ip, 5);
    expect([...first.statuses, ...second.statuses]).to.deep.equal([...Array(9).fill(400), 429]);
    return Number(second.last.headers.get('retry-after'));
  }

  it('sends 20 codes asked from one IP in 15 minutes, not a 21st, and counts no refused one against its address', async () => {
    for (let n = 0; n < 20; n++) {
      expect((await ask(`reader${n}@a.io`, '203.0.113.1')).codeForm, `code ${n + 1}`).to.not.equal(
        null,
      );
    }
    const { refused } = await ask('late@a.io', '203.0.113.1');
    expect(refused?.status).to.equal(429);
    expect(await refused?.text()).to.include('Too many sign-in codes');
    // "codes sent to one address": the refused request sent none, so late@ still gets all 5
    for (let n = 0; n < 5; n++) {
      expect((await ask('late@a.io', '198.51.100.1')).codeForm, `late@ ${n + 1}`).to.not.equal(
        null,
      );
    }
    offset = 14 * MINUTE + 30_000;
    expect((await ask('later@a.io', '203.0.113.1')).refused?.status).to.equal(429);
    offset = 15 * MINUTE + 30_000;
    expect((await ask('later@a.io', '203.0.113.1')).codeForm).to.not.equal(null);
    expect(mailedCodes(h.mailboxPath)).to.have.length(26);
  });

  it('locks an IP out at its 30th wrong code, for 15 minutes, and then takes no right code from it', async () => {
    const { codeForm, jar } = await ask('target@a.io', '203.0.113.2');
    const rightCode = mailedCodes(h.mailboxPath).at(-1) as string;
    const statuses: number[] = [];
    // six addresses, five wrong codes each: under the address limit (10), at the IP's (30)
    for (let n = 0; n < 6; n++)
      statuses.push(...(await guessWrong(`spread${n}@a.io`, '203.0.113.2', 5)).statuses);
    expect(statuses.slice(0, 29)).to.deep.equal(Array(29).fill(400));
    expect(statuses[29]).to.equal(429);
    const right = await request(
      jar,
      codeForm?.action ?? '',
      { ...codeForm?.fields, code: rightCode },
      from('203.0.113.2'),
    );
    expect(right.status).to.equal(429);
    expect(Number(right.headers.get('retry-after'))).to.be.within(14 * 60, 15 * 60);
    expect((await ask('fresh@a.io', '203.0.113.2')).refused?.status).to.equal(429);
  });

  it('counts wrong codes for an address over the hour: the 10th, 59½ minutes after the 9th, locks it out', async () => {
    const early = await guessWrong('slow@a.io', '203.0.113.3', 5);
    const more = await guessWrong('slow@a.io', '203.0.113.3', 4);
    expect([...early.statuses, ...more.statuses]).to.deep.equal(Array(9).fill(400));
    offset = 59 * MINUTE + 30_000;
    const tenth = await guessWrong('slow@a.io', '203.0.113.4', 1);
    expect(tenth.statuses).to.deep.equal([429]);
  });

  it('doubles each lockout up to 24 hours', async () => {
    const lockouts: number[] = [];
    for (let round = 0; round < 8; round++) {
      // a new IP each round: the IP's own limit (30 an hour) stays out of it
      const seconds = await lockOut('victim@a.io', `198.51.100.${10 + round}`);
      lockouts.push(seconds);
      offset += seconds * 1000 + MINUTE;
    }
    expect(lockouts.map((s) => s / 60)).to.deep.equal([15, 30, 60, 120, 240, 480, 960, 1440]);
  });

  it('remembers a lockout for 24 hours without one, and forgets it after', async () => {
    expect(await lockOut('twice@a.io', '198.51.100.30')).to.equal(15 * 60);
    offset += 15 * MINUTE + 23 * HOUR + 30 * MINUTE;
    expect(await lockOut('twice@a.io', '198.51.100.31')).to.equal(30 * 60);
    offset += 30 * MINUTE + 24 * HOUR + MINUTE;
    expect(await lockOut('twice@a.io', '198.51.100.32')).to.equal(15 * 60);
  });
});
