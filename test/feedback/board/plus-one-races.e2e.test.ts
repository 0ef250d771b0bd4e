/**
 * +1s from one network pressed together. README (Public board): "+1 toggles: 300 an hour per IP
 * (bursts of 30); and a +1 added by a visitor without a confirmed e-mail address … 10 a day per
 * IP and item" — a burst of 4 and 3 a day here. A press holds its token in both buckets before
 * it is made, both or neither (src/limits/holds.ts): asked first and drawn after, presses sent
 * together all passed the look, then the item's bucket refused those past its 3 after the IP's
 * had given them tokens, so the IP's burst was spent by 3 +1s. The store holds the item reads
 * that come just before the buckets so that the presses meet there whatever the timing; the rest
 * runs as in production over HTTP on 127.0.0.1.
 */
import { expect } from 'chai';
import { ITEMS } from '../../../projections/items/document.js';
import { heldReadsIn } from '../../support/held-reads.js';
import { BoardVisitor, type BoardWorld, field, startBoardWorld } from './support.js';

const TOGETHER = 6;

describe('When fresh visitors on one network press +1 together (e2e)', function () {
  this.timeout(60_000);
  let world: BoardWorld;
  let reads: ReturnType<typeof heldReadsIn>;
  before(async () => {
    world = await startBoardWorld({
      PLUS_ONES_PER_IP_PER_HOUR: '40',
      PLUS_ONES_PER_IP_PER_ITEM_PER_DAY: '3',
    });
    reads = heldReadsIn(world.fb.deps().readStore, [ITEMS]);
  });
  after(() => world.fb.stop());

  /** fresh visitors' +1 presses on `itemKey`, each ready to send */
  async function presses(itemKey: string) {
    return Promise.all(
      Array.from({ length: TOGETHER }, async () => {
        const v = new BoardVisitor(world.fb.url);
        const page = await v.get(`${world.boardPath}/items/${itemKey}`);
        const csrf = field(page.text, 'csrf');
        const path = `${world.boardPath}/items/${itemKey}/plus-one`;
        return () => v.post(path, { csrf }, { json: true });
      }),
    );
  }

  it("adds exactly the item's 3 of 6, and the 3 refused leave the IP's last token", async () => {
    const { itemKey } = await world.fb.submit(world.ws, 'APP', { body: 'Press me' });
    const { itemKey: other } = await world.fb.submit(world.ws, 'APP', { body: 'And me' });
    const first = await presses(itemKey);
    // each press reads its item just before the buckets: all meet there
    const met = reads.hold(ITEMS, TOGETHER, { answered: true });
    const answers = Promise.all(first.map((press) => press()));
    for (const release of await met) release();
    const statuses = (await answers).map((page) => page.status).sort();
    expect(statuses).to.deep.equal([200, 200, 200, 429, 429, 429]);

    const more = await Promise.all((await presses(other)).map((press) => press()));
    const added = more.filter((page) => page.status === 200).length;
    expect(added, more.map((page) => `${page.status} ${page.text}`).join('\n')).to.equal(1);
  });
});
