/**
 * +1 stuffing over real HTTP: an anonymous visitor's +1 is one per cookie, so clearing cookies
 * gives another. README, configuration: PLUS_ONES_PER_IP_PER_ITEM_PER_DAY — "public board +1s one
 * client IP may add to one item per day from visitors without a confirmed e-mail address (at
 * once, then spread over the day); withdrawing and confirmed visitors take none".
 */
import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import {
  BoardVisitor,
  type BoardWorld,
  confirmEmail,
  field,
  type Page,
  startBoardWorld,
} from './support.js';

const items = '/v1/workspaces/acme-co/products/APP/items';

describe('+1 stuffing from one network (e2e)', () => {
  let world: BoardWorld;
  let owner: Api;

  before(async () => {
    world = await startBoardWorld({ PLUS_ONES_PER_IP_PER_ITEM_PER_DAY: '3' });
    owner = world.fb.api(world.owner.token);
  });
  after(() => world.fb.stop());

  const count = async (key: string) => (await owner.get(`${items}/${key}`)).body.item.plusOneCount;
  const press = async (v: BoardVisitor, itemKey: string): Promise<Page> => {
    const page = await v.get(`${world.boardPath}/items/${itemKey}`);
    return v.post(
      `${world.boardPath}/items/${itemKey}/plus-one`,
      { csrf: field(page.text, 'csrf') },
      { json: true },
    );
  };

  describe('When fresh cookies from one IP press +1 on one item past the bound', () => {
    it('refuses the fourth with 429 and Retry-After, counting three; other items, withdrawals and confirmed visitors go through', async () => {
      const { itemKey } = await world.fb.submit(world.ws, 'APP', { body: 'Stuff me' });
      const { itemKey: other } = await world.fb.submit(world.ws, 'APP', { body: 'Another one' });
      const first = new BoardVisitor(world.fb.url);
      for (const v of [first, new BoardVisitor(world.fb.url), new BoardVisitor(world.fb.url)]) {
        const ok = await press(v, itemKey);
        expect(ok.status, ok.text).to.equal(200);
      }
      const refused = await press(new BoardVisitor(world.fb.url), itemKey);
      expect(refused.status, refused.text).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(JSON.parse(refused.text).error).to.match(
        /too many \+1s on this item from your network; try again in \d+ s, or confirm your e-mail address/,
      );
      expect(await count(itemKey), 'the refused +1 is not counted').to.equal(3);

      // the bound is per item: the same network's visitor may +1 another item
      expect((await press(new BoardVisitor(world.fb.url), other)).status).to.equal(200);
      // withdrawing takes nothing from it
      const off = await press(first, itemKey);
      expect(off.status, off.text).to.equal(200);
      expect(JSON.parse(off.text)).to.include({ plusOneCount: 2, plusOned: false });
      // a visitor who confirmed an address counts once by that address, so is not bounded by it
      const kim = new BoardVisitor(world.fb.url);
      await confirmEmail(world, kim, 'kim@customer.example');
      const confirmed = await press(kim, itemKey);
      expect(confirmed.status, confirmed.text).to.equal(200);
      expect(await count(itemKey)).to.equal(3);
    });
  });
});
