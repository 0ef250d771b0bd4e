/**
 * A board search revalidated with `If-None-Match: *` spends none of the IP's searches. RFC 9110
 * §13.1.2: `*` "is false if the origin server has a current representation for the target
 * resource", so a GET carrying it answers 304 — decided without running the search (its answer
 * has no tag, only `*` matches). README (Public board, Spam and rate limits): board searches are
 * "a token bucket per client IP" because each "embeds its query on the embedder thread": a 304
 * embeds nothing, so it draws nothing, and once the bucket is spent answers 429 as the search
 * would. For the page's `?q=` and the suggestions alike.
 */
import { expect } from 'chai';
import { BoardVisitor, type BoardWorld, startBoardWorld } from './support.js';

describe('When a board search is revalidated with If-None-Match: * (e2e)', function () {
  this.timeout(60_000);
  let world: BoardWorld;
  before(async () => {
    world = await startBoardWorld({
      BOARD_SEARCHES_PER_IP_BURST: '2',
      BOARD_SEARCHES_PER_IP_PER_HOUR: '1',
    });
  });
  after(() => world.fb.stop());

  for (const [name, path] of [
    ["the page's ?q=", '?q=dark%20mode'],
    ['the suggestions', '/suggest?q=dark%20mode'],
  ] as const) {
    it(`answers 304 without spending a search, for ${name}; 429 once the bucket is spent`, async () => {
      world.fb.clock.advance(2 * 3600 * 1000); // a full bucket: 2 searches
      const v = new BoardVisitor(world.fb.url);
      const url = `${world.boardPath}${path}`;
      const revalidate = () => v.get(url, { 'if-none-match': '*' });
      for (let i = 0; i < 4; i++) {
        const answer = await revalidate();
        expect(answer.status, answer.text.slice(0, 200)).to.equal(304);
        expect(answer.text).to.equal('');
      }
      expect((await v.get(url)).status).to.equal(200);
      expect((await v.get(url)).status).to.equal(200);
      const spent = await revalidate();
      expect(spent.status).to.equal(429);
      expect(Number(spent.headers.get('retry-after'))).to.be.within(3590, 3600);
    });
  }
});
