/**
 * Guesses at one sign-in code that arrive together. README (Security, Sign-in throttles): "5 tries
 * per code". Each try used to be read, compared, and only then counted: guesses whose reads
 * crossed (several API processes over MongoDB, a slow round trip) were all compared against the
 * count none of them had written yet. Here the store holds the reads of the codes collection so
 * that they cross whatever the timing; everything else runs as in production.
 */
import { expect } from 'chai';
import type { HeldReads } from '../support/held-reads.js';
import { request } from './support/browserless.js';
import { registerClient } from './support/client.js';
import { harnessWithHeldReads } from './support/held-harness.js';
import { askForCode, codeOutcome, mailedCodes } from './support/sign-in.js';

/** each submitted code reads it twice: is a code pending (the form to show), then the check */
const CODES = 'oauth_email_codes';
const TOO_OFTEN = 'That code has expired or was tried too often. Ask for a new one.';

/** all `submits` at once, each one's check answering what the store held before any was counted */
async function crossing(held: HeldReads, submits: (() => Promise<Response>)[]) {
  const pending = held.hold(CODES, submits.length);
  const answers = Promise.all(submits.map((submit) => submit()));
  const checks = pending.then((releases) => {
    const met = held.hold(CODES, submits.length, { answered: true });
    for (const release of releases) release();
    return met;
  });
  for (const release of await checks) release();
  return Promise.all((await answers).map(codeOutcome));
}

describe('When guesses at one sign-in code arrive at the same moment', function () {
  this.timeout(60_000);
  const held = harnessWithHeldReads();
  const { reads } = held;
  let config: Awaited<ReturnType<typeof registerClient>>;
  before(async () => {
    config = await registerClient(held.h.base);
  });

  async function codeSent(email: string) {
    const sent = await askForCode(held.h, config, email);
    const form = sent.codeForm as NonNullable<typeof sent.codeForm>;
    const code = mailedCodes(held.h.mailboxPath).at(-1) as string;
    const submit = (guess: string) => () =>
      request(sent.jar, form.action, { ...form.fields, code: guess });
    return { code, submit, wrong: code === '000000' ? '000001' : '000000' };
  }

  it('compares only 5 of 7 wrong guesses sent together, each told the tries truly left', async () => {
    const { submit, wrong } = await codeSent('burst@a.io');

    const answers = await crossing(
      reads,
      Array.from({ length: 7 }, () => submit(wrong)),
    );

    expect(answers.sort()).to.deep.equal([
      `400 ${TOO_OFTEN}`,
      `400 ${TOO_OFTEN}`,
      `400 ${TOO_OFTEN}`,
      '400 That code is not right. 1 attempt(s) left.',
      '400 That code is not right. 2 attempt(s) left.',
      '400 That code is not right. 3 attempt(s) left.',
      '400 That code is not right. 4 attempt(s) left.',
    ]);
  });

  it('finishes the sign-in once when the right code is sent twice together', async () => {
    // README (Sign-in throttles): "A code is used once: of two right codes submitted at the same
    // moment, only the one that uses it up signs in, and the other is answered as a code already
    // used." The first found right reaches the store late to use it up (its deleteOne is held):
    // the other has meanwhile taken its try, found the code right and used it up.
    const { code, submit } = await codeSent('twice-right@a.io');
    const late = reads.hold(CODES, 1, { method: 'deleteOne' });
    const answers = [submit(code)(), submit(code)()];
    const [release] = await late;
    await Promise.any(answers);
    release?.();

    const outcomes = await Promise.all(answers.map(async (answer) => codeOutcome(await answer)));

    expect(outcomes.map((said) => said.replace(/\/[^/]+$/, '/…')).sort()).to.deep.equal([
      '303 /oauth/authorize/…',
      `400 ${TOO_OFTEN}`,
    ]);
  });

  it('refuses the right code whose check read the code before 5 wrong guesses were counted', async () => {
    const { code, submit, wrong } = await codeSent('slow-right@a.io');
    const pending = reads.hold(CODES, 1);
    const right = submit(code)();
    const checked = pending.then(([release]) => {
      const met = reads.hold(CODES, 1, { answered: true });
      release?.();
      return met;
    });
    const [answer] = await checked;

    for (let i = 0; i < 5; i++) expect((await submit(wrong)()).status).to.equal(400);
    answer?.();

    expect(await codeOutcome(await right)).to.equal(`400 ${TOO_OFTEN}`);
  });
});
