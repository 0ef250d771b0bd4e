/**
 * Codes the board's identity page sends to one address (it shares sign-in's throttles). README
 * (Security, Sign-in throttles): "| codes sent to one address | 5 per 15 min |", and "a code that
 * could not be sent gives its place back". A code not sent (the mail port failed, or the
 * visitor's own bucket refused it after the address's place was held, or the store failed to
 * keep it) is not one the address received: the next visitor's code is sent.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import { interceptIn } from '../../support/intercepted-store.js';
import { BoardVisitor, type BoardWorld, field, mailsTo, startBoardWorld } from './support.js';

describe('When codes for one address are not sent from the board (e2e)', () => {
  let world: BoardWorld;
  let identity: string;
  /** how many of the next writes of a code the store fails */
  let codeWritesFailing = 0;
  before(async () => {
    world = await startBoardWorld({ SIGNIN_CODES_PER_ADDRESS: '5' });
    identity = `${world.boardPath}/identity`;
    const codes = 'feedback_board_email_codes';
    interceptIn(world.fb.deps().readStore, [codes], (_, method, proceed) => {
      if (method !== 'replaceOne' || codeWritesFailing === 0) return proceed();
      codeWritesFailing--;
      return Promise.reject(new Error('store down while keeping the code'));
    });
  });
  after(() => world.fb.stop());

  /** `visitor` asks for a code for `email` (a new visitor when none is given): the status */
  async function ask(email: string, visitor = new BoardVisitor(world.fb.url)) {
    const start = await visitor.get(identity);
    return (await visitor.post(identity, { csrf: field(start.text, 'csrf'), email })).status;
  }

  it('gives the places of 5 failed sends back: the next code is sent', async () => {
    const email = 'mail-down@customer.example';
    // the dev mailbox a directory: the mail port fails as a mail server that is down does
    fs.mkdirSync(world.fb.mailboxPath);
    const failed: number[] = [];
    for (let i = 0; i < 5; i++) failed.push(await ask(email));
    fs.rmdirSync(world.fb.mailboxPath);
    expect(failed).to.deep.equal([503, 503, 503, 503, 503]);

    expect(await ask(email)).to.equal(303);
    expect(mailsTo(world, email)).to.equal(1);
  });

  it("gives the place back when the visitor's own bucket refuses: 5 are still sent", async () => {
    const email = 'visitor-refused@customer.example';
    const keen = new BoardVisitor(world.fb.url);
    // the visitor's bucket holds 3 at once: its 4th is refused after the address's place was held
    const own = [await ask(email, keen), await ask(email, keen), await ask(email, keen)];
    expect(own).to.deep.equal([303, 303, 303]);
    expect(await ask(email, keen)).to.equal(429);

    const others = [await ask(email), await ask(email), await ask(email)];

    expect(others).to.deep.equal([303, 303, 429]);
    expect(mailsTo(world, email)).to.equal(5);
  });

  it("gives the places back when the store fails to keep the code: the visitor's 3 and the address's 5 are still sent", async () => {
    // the code was never sent: its places held were left counting (Retry-After: 1 for 2
    // minutes, then as a sent code), so the visitor's 3rd code was refused
    const email = 'store-down@customer.example';
    const keen = new BoardVisitor(world.fb.url);
    codeWritesFailing = 1;
    const failed = await ask(email, keen);
    expect(codeWritesFailing, 'the store failed the code').to.equal(0);
    expect(failed).to.be.within(500, 599);

    const own = [await ask(email, keen), await ask(email, keen), await ask(email, keen)];
    const others = [await ask(email), await ask(email)];

    expect(own).to.deep.equal([303, 303, 303]);
    expect(others).to.deep.equal([303, 303]);
    expect(mailsTo(world, email)).to.equal(5);
  });
});
