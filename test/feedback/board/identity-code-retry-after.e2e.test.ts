/**
 * Retry-After of a token bucket while a token is held by a request in flight (src/limits:
 * token-bucket.ts, reservations.ts). RFC 9110 §10.2.3: Retry-After says "how long the user agent
 * ought to wait before making a follow-up request"; README (Public board): "A submission or +1
 * holds its token in each of its buckets before it is made … and gives them back when it is
 * refused or files nothing". A held token may come back at any moment, so a request the bucket
 * refuses while the held one would be enough is told to retry in a second, not after the whole
 * refill; once the held one is kept, the refill's real wait. Here the visitor's code bucket of
 * the identity page (1 at once, then 1 an hour), a code held while its mail is on its way.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import { interceptIn } from '../../support/intercepted-store.js';
import { BoardVisitor, type BoardWorld, field, startBoardWorld } from './support.js';

const CODES = 'feedback_board_email_codes';

describe('When a board visitor asks for a code while their last one is on its way (e2e)', function () {
  this.timeout(60_000);
  let world: BoardWorld;
  let identity: string;
  /** the next code stored waits here: its request holds the visitor's token meanwhile */
  let gate: { reached: () => void; release: Promise<void> } | null = null;

  before(async () => {
    world = await startBoardWorld({
      BOARD_CODES_PER_VISITOR_BURST: '1',
      BOARD_CODES_PER_VISITOR_PER_HOUR: '1',
    });
    identity = `${world.boardPath}/identity`;
    interceptIn(world.fb.deps().readStore, [CODES], async (_c, method, proceed) => {
      const held = gate;
      if (held && method === 'replaceOne') {
        gate = null;
        held.reached();
        await held.release;
      }
      return proceed();
    });
  });
  after(() => world.fb.stop());

  /** sends a code request that stops once its token is held; `release` lets it go on */
  async function inFlight(visitor: BoardVisitor, csrf: string, email: string) {
    let release = () => {};
    let reached = () => {};
    const arrived = new Promise<void>((resolve) => {
      reached = resolve;
    });
    gate = { reached, release: new Promise<void>((resolve) => (release = resolve)) };
    const answer = visitor.post(identity, { csrf, email });
    await arrived;
    return { release, answer };
  }

  async function started() {
    const visitor = new BoardVisitor(world.fb.url);
    const csrf = field((await visitor.get(identity)).text, 'csrf');
    return { visitor, csrf };
  }

  it('answers Retry-After: 1 while the held token would do, and the retry then gets it back', async () => {
    const { visitor, csrf } = await started();
    const first = await inFlight(visitor, csrf, 'first@customer.example');
    const refused = await visitor.post(identity, { csrf, email: 'second@customer.example' });
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('retry-after')).to.equal('1');
    // the first code cannot be mailed (the mailbox a directory): its token comes back
    const mailbox = world.fb.mailboxPath;
    if (fs.existsSync(mailbox)) fs.renameSync(mailbox, `${mailbox}.kept`);
    fs.mkdirSync(mailbox);
    first.release();
    expect((await first.answer).status).to.equal(503);
    fs.rmdirSync(mailbox);
    if (fs.existsSync(`${mailbox}.kept`)) fs.renameSync(`${mailbox}.kept`, mailbox);
    const retried = await visitor.post(identity, { csrf, email: 'second@customer.example' });
    expect(retried.status, retried.text.slice(0, 300)).to.equal(303);
  });

  it("answers the refill's real wait once the held token is kept", async () => {
    const { visitor, csrf } = await started();
    const first = await inFlight(visitor, csrf, 'kept@customer.example');
    const whileHeld = await visitor.post(identity, { csrf, email: 'other@customer.example' });
    expect(whileHeld.headers.get('retry-after')).to.equal('1');
    first.release();
    expect((await first.answer).status).to.equal(303);
    const refused = await visitor.post(identity, { csrf, email: 'other@customer.example' });
    expect(refused.status).to.equal(429);
    // one token an hour, taken moments ago: the wait is the hour, less the moments gone by
    expect(Number(refused.headers.get('retry-after'))).to.be.within(3590, 3600);
    world.fb.clock.advance(3600 * 1000);
    const later = await visitor.post(identity, { csrf, email: 'other@customer.example' });
    expect(later.status, later.text.slice(0, 300)).to.equal(303);
  });
});
