/**
 * Codes the board's identity page sends, counted by sign-in's throttles and the visitor's own
 * bucket together (src/auth/interaction/throttle.ts `beforeIssue`, src/limits/holds.ts). README
 * (Public board): "confirmation codes on the identity page: a token bucket per visitor, 3 at once"
 * — and (Security, Sign-in throttles) "| codes requested from one IP |", 5 here. A code is held in
 * every count before it is sent, all or none: one the visitor's bucket refuses spends none of
 * the IP's codes, and one that could not be sent spends none of the visitor's. The whole feedback
 * service over HTTP on 127.0.0.1.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import { BoardVisitor, type BoardWorld, field, startBoardWorld } from './support.js';

describe('When a board visitor asks for codes past their own bucket (e2e)', () => {
  let world: BoardWorld;
  let identity: string;
  before(async () => {
    world = await startBoardWorld({
      SIGNIN_CODES_PER_IP: '5',
      BOARD_CODES_PER_VISITOR_BURST: '3',
      BOARD_CODES_PER_VISITOR_PER_HOUR: '1',
    });
    identity = `${world.boardPath}/identity`;
  });
  after(() => world.fb.stop());

  /** `visitor`'s requests for codes to `count` addresses, sent together: the statuses, sorted */
  async function askTogether(visitor: BoardVisitor, prefix: string, count: number) {
    const start = await visitor.get(identity);
    const csrf = field(start.text, 'csrf');
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        visitor.post(identity, { csrf, email: `${prefix}-${i}@customer.example` }),
      ),
    );
    return answers.map((page) => page.status).sort();
  }

  it("sends the visitor's 3 of 6 and leaves the IP's other 2 codes to another visitor", async () => {
    expect(await askTogether(new BoardVisitor(world.fb.url), 'keen', 6)).to.deep.equal([
      303, 303, 303, 429, 429, 429,
    ]);
    expect(await askTogether(new BoardVisitor(world.fb.url), 'next', 6)).to.deep.equal([
      303, 303, 429, 429, 429, 429,
    ]);
  });

  it('gives the visitor their codes back when none could be sent', async () => {
    world.fb.clock.advance(60 * 60 * 1000); // the IP's 5 codes are out of its window
    const visitor = new BoardVisitor(world.fb.url);
    // the dev mailbox a directory: the mail port fails as a mail server that is down does
    const mailbox = world.fb.mailboxPath;
    fs.renameSync(mailbox, `${mailbox}.kept`);
    fs.mkdirSync(mailbox);
    const failed = await askTogether(visitor, 'down', 2);
    fs.rmdirSync(mailbox);
    fs.renameSync(`${mailbox}.kept`, mailbox);
    expect(failed).to.deep.equal([503, 503]);
    // the IP's count keeps the 2 asked for (README: codes requested), the visitor's does not
    expect(await askTogether(visitor, 'up', 3)).to.deep.equal([303, 303, 303]);
  });
});
