/**
 * Wrong guesses at board codes that arrive together: the board's identity page shares sign-in's
 * codes and throttles (src/auth/interaction/). README (Security, Sign-in throttles): "5 tries per
 * code", "| wrong codes for one address | 10 per hour, then a lockout |", and "A try is counted
 * before the code is compared". Here the store holds the reads of the board's codes so that
 * they cross whatever the timing, as sign-in-code-races and sign-in-throttle-races do for
 * sign-in; everything else runs as in production, the whole feedback service over HTTP.
 */
import { expect } from 'chai';
import { latestCode } from '../../auth/support/browserless.js';
import { heldReadsIn } from '../../support/held-reads.js';
import { BoardVisitor, type BoardWorld, field, startBoardWorld } from './support.js';

/** each submitted code reads it twice: is a code pending (whose form), then the check */
const CODES = 'feedback_board_email_codes';
const EXPIRED = 'That code has expired. Ask for a new one.';
const GUESSES = 7;

/** the sentence a code page showed */
const said = (page: { status: number; text: string }) =>
  `${page.status} ${/That code [^.;]*[.;](?: [^<]*?left\.| Ask for a new one\.)?/.exec(page.text)?.[0] ?? '(no sentence)'}`;

describe('When wrong guesses at board codes arrive at the same moment (e2e)', function () {
  this.timeout(60_000);
  let world: BoardWorld;
  let reads: ReturnType<typeof heldReadsIn>;
  let identity: string;
  before(async () => {
    world = await startBoardWorld();
    reads = heldReadsIn(world.fb.deps().readStore, [CODES]);
    identity = `${world.boardPath}/identity`;
  });
  after(() => world.fb.stop());

  /** a new visitor asks for a code for `email`: the answer, and how to send a wrong guess */
  async function codeSent(email: string) {
    const v = new BoardVisitor(world.fb.url);
    const start = await v.get(identity);
    const sent = await v.post(identity, { csrf: field(start.text, 'csrf'), email });
    const asked = await v.get(identity);
    const code = latestCode(world.fb.mailboxPath, email);
    const wrong = code === '000000' ? '000001' : '000000';
    const csrf = field(asked.text, 'csrf');
    return { sent, guess: () => v.post(`${identity}/code`, { csrf, code: wrong }) };
  }

  it('compares only 5 of 7 wrong guesses at one code, each told the tries truly left', async () => {
    const { guess } = await codeSent('burst@customer.example');

    // all pass "is a code pending" together, then each check reads the code before any counted
    const pending = reads.hold(CODES, GUESSES);
    const answers = Promise.all(Array.from({ length: GUESSES }, guess));
    const checks = pending.then((releases) => {
      const met = reads.hold(CODES, GUESSES, { answered: true });
      for (const release of releases) release();
      return met;
    });
    for (const release of await checks) release();

    expect((await answers).map(said).sort()).to.deep.equal([
      `400 ${EXPIRED}`,
      `400 ${EXPIRED}`,
      '400 That code is not right. Ask for a new one.',
      '400 That code is not right; 1 try left.',
      '400 That code is not right; 2 tries left.',
      '400 That code is not right; 3 tries left.',
      '400 That code is not right; 4 tries left.',
    ]);
  });

  it('compares no more than 10 wrong guesses for one address from 3 visitors', async () => {
    const email = 'together@customer.example';
    const guesses: (() => Promise<{ status: number }>)[] = [];
    for (let visitor = 0; visitor < 3; visitor++) {
      const { guess } = await codeSent(email);
      for (let i = 0; i < 5; i++) guesses.push(guess);
    }

    // all pass "is a code pending" together, so all reach the throttle at the same moment
    const met = reads.hold(CODES, guesses.length);
    const answers = Promise.all(guesses.map((guess) => guess()));
    for (const release of await met) release();
    const statuses = (await answers).map((page) => page.status);

    const codes = await world.fb.deps().readStore.collection(CODES).find({ email });
    const compared = codes.reduce((sum, doc) => sum + Number(doc.attempts), 0);
    expect(compared, `statuses ${statuses.join(' ')}`).to.equal(10);
    // the 10th started the lockout: no code is sent to the address now
    expect((await codeSent(email)).sent.status).to.equal(429);
  });
});
