/**
 * The public board's search and confirmation-code buckets follow their configuration keys, over
 * real HTTP. README, Spam and rate limits: "board searches …: a token bucket per client IP, 60 at
 * once, then 600 an hour (`BOARD_SEARCHES_PER_IP_*`)"; "confirmation codes on the identity page:
 * a token bucket per visitor, 3 at once, then 6 an hour (`BOARD_CODES_PER_VISITOR_*`)"; "Every
 * figure is a configuration key"; "A refusal is HTTP 429 with `Retry-After`". Both were
 * hard-coded until an audit found them.
 */
import { expect } from 'chai';
import { BoardVisitor, type BoardWorld, field, mailsTo, startBoardWorld } from './support.js';

describe("The board's configured search and code limits (e2e)", () => {
  let world: BoardWorld;

  before(async () => {
    world = await startBoardWorld({
      BOARD_SEARCHES_PER_IP_BURST: '2',
      BOARD_SEARCHES_PER_IP_PER_HOUR: '10',
      BOARD_CODES_PER_VISITOR_BURST: '1',
      BOARD_CODES_PER_VISITOR_PER_HOUR: '4',
    });
  });
  after(() => world.fb.stop());

  describe('When one IP searches the board past BOARD_SEARCHES_PER_IP_BURST', () => {
    it('answers 429 with Retry-After at the configured burst, for pages and suggestions alike', async () => {
      const v = new BoardVisitor(world.fb.url);
      expect((await v.get(`${world.boardPath}?q=dark%20mode`)).status).to.equal(200);
      expect((await v.get(`${world.boardPath}/suggest?q=dark%20mode`)).status).to.equal(200);
      for (const path of [
        `${world.boardPath}?q=dark%20mode`,
        `${world.boardPath}/suggest?q=dark`,
      ]) {
        const refused = await v.get(path);
        expect(refused.status, path).to.equal(429);
        // 10 an hour: the next token in 360 s
        expect(Number(refused.headers.get('retry-after')), path).to.be.within(1, 360);
      }
      // a page without a search draws nothing from the bucket
      expect((await v.get(world.boardPath)).status).to.equal(200);
    });
  });

  describe('When one visitor asks for codes past BOARD_CODES_PER_VISITOR_BURST', () => {
    it('answers 429 with Retry-After at the configured burst and sends no second code', async () => {
      const identity = `${world.boardPath}/identity`;
      const v = new BoardVisitor(world.fb.url);
      const start = await v.get(identity);
      const csrf = field(start.text, 'csrf');
      const first = await v.post(identity, { csrf, email: 'first@customer.example' });
      expect(first.status).to.equal(303);
      // another address, so only the visitor's bucket can refuse it
      const second = await v.post(identity, { csrf, email: 'second@customer.example' });
      expect(second.status).to.equal(429);
      // 4 an hour: the next token in 900 s
      expect(Number(second.headers.get('retry-after'))).to.be.within(1, 900);
      expect(mailsTo(world, 'second@customer.example')).to.equal(0);
    });
  });
});
