/**
 * A HEAD of a board search spends none of the IP's searches. RFC 9110 §9.3.2: "The HEAD method
 * is identical to GET except that the server MUST NOT send content in the response", and "the
 * server SHOULD send the same header fields in response to a HEAD request as it would have sent
 * if the request method had been GET" — the status and headers, not the search's results, so
 * the search does not run. README (Spam and rate limits): board searches are a token bucket per
 * client IP because each embeds its query; a HEAD embeds nothing, so it draws nothing, and once
 * the bucket is spent answers 429 as the search would. Express routes a HEAD through the GET's
 * handler, which ran the search and charged it. For the page's `?q=` and the suggestions alike.
 */
import { expect } from 'chai';
import { BoardVisitor, type BoardWorld, startBoardWorld } from './support.js';

describe('When a board search is asked with HEAD (e2e)', function () {
  this.timeout(60_000);
  let world: BoardWorld;
  before(async () => {
    world = await startBoardWorld({
      BOARD_SEARCHES_PER_IP_BURST: '2',
      BOARD_SEARCHES_PER_IP_PER_HOUR: '1',
    });
  });
  after(() => world.fb.stop());

  const head = async (path: string) => {
    const res = await fetch(new URL(path, world.fb.url), { method: 'HEAD', redirect: 'manual' });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  for (const [name, path, type] of [
    ["the page's ?q=", '?q=dark%20mode', 'text/html'],
    ['the suggestions', '/suggest?q=dark%20mode', 'application/json'],
  ] as const) {
    it(`answers the GET's status and headers without spending a search, for ${name}; 429 once the bucket is spent`, async () => {
      world.fb.clock.advance(2 * 3600 * 1000); // a full bucket: 2 searches
      const url = `${world.boardPath}${path}`;
      const get = await new BoardVisitor(world.fb.url).get(url);
      expect(get.status).to.equal(200);
      // past the bucket's 2 searches (1 already spent by the GET above)
      for (let i = 0; i < 4; i++) {
        const answer = await head(url);
        expect(answer.status, `HEAD ${i + 1}`).to.equal(200);
        expect(answer.text).to.equal('');
        expect(answer.headers.get('content-type')).to.contain(type);
        expect(answer.headers.get('cache-control')).to.equal(get.headers.get('cache-control'));
        expect(answer.headers.get('content-security-policy')).to.equal(
          get.headers.get('content-security-policy'),
        );
      }
      // the one search left is still there for a GET
      expect((await new BoardVisitor(world.fb.url).get(url)).status).to.equal(200);
      const spent = await head(url);
      expect(spent.status).to.equal(429);
      expect(Number(spent.headers.get('retry-after'))).to.be.within(3590, 3600);
    });
  }
});
