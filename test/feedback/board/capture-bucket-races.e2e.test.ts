/**
 * Submissions from one network arriving together (src/feedback/capture/guard.ts, issue 12 item
 * 5: "per-IP, per-person and per-product token buckets kept in the store"). README (Public
 * board): a submission is counted in every bucket or in none — "a refused request costs the others
 * nothing". Each submission holds its token in every bucket before it files (src/limits/holds.ts)
 * and gives them back when one bucket refuses it. Asked first and drawn after, requests sent
 * together all passed the question, then each drew from the buckets one by one: those the
 * product's bucket refused had spent the IP's tokens for nothing. Here the store holds the
 * buckets' reads so that the requests meet whatever the timing; the rest runs as in production,
 * the whole feedback service over HTTP on 127.0.0.1.
 */
import { expect } from 'chai';
import { heldReadsIn } from '../../support/held-reads.js';
import { BoardVisitor, type BoardWorld, fillTime, SLUG, startBoardWorld } from './support.js';

const LIMITS = 'rate_limits';
const TOGETHER = 6;

describe('When submissions from one network arrive together (e2e)', function () {
  this.timeout(60_000);
  let world: BoardWorld;
  let reads: ReturnType<typeof heldReadsIn>;
  before(async () => {
    // the IP's burst 4 and the product's 2, refilled by one an hour (not within the test)
    world = await startBoardWorld({
      CAPTURE_IP_BURST: '4',
      CAPTURE_IP_PER_HOUR: '1',
      CAPTURE_PRODUCT_BURST: '2',
      CAPTURE_PRODUCT_PER_HOUR: '1',
    });
    await world.fb.createProduct(world.ws, { key: 'WEB', name: 'Acme Web', visibility: 'public' });
    reads = heldReadsIn(world.fb.deps().readStore, [LIMITS]);
  });
  after(() => world.fb.stop());

  /** new visitors' widget submissions to `product`, each ready to send */
  async function submissions(product: string, count: number) {
    const capture = `/capture/${SLUG}/${product}`;
    const sends = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const visitor = new BoardVisitor(world.fb.url);
        const { formToken } = JSON.parse((await visitor.get(capture)).text);
        const body = { formToken, title: `Idea ${product} ${i}`, body: `Idea number ${i}.` };
        return () => visitor.post(capture, body, { json: true });
      }),
    );
    fillTime(world);
    return sends;
  }

  it("files exactly the product's 2 of 6, and the 4 refused leave the IP's tokens for 2 more", async () => {
    const first = await submissions('APP', TOGETHER);
    // every submission asks its three buckets before any counts: the IP's and the product's
    // first reads, and each new visitor's own
    const met = reads.hold(LIMITS, TOGETHER + 2);
    const answers = Promise.all(first.map((send) => send()));
    for (const release of await met) release();
    const statuses = (await answers).map((page) => page.status).sort();
    expect(statuses).to.deep.equal([200, 200, 429, 429, 429, 429]);

    // the IP's burst of 4 spent only by the 2 filed: 2 more of 6 sent together to another product
    const second = await submissions('WEB', TOGETHER);
    const more = await Promise.all(second.map((send) => send()));
    const filed = more.filter((page) => page.status === 200).length;
    expect(filed, more.map((page) => `${page.status} ${page.text}`).join('\n')).to.equal(2);
  });
});
