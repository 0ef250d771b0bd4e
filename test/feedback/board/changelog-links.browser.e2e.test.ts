/// <reference lib="dom" />
/**
 * The changelog's links to its entries' items, as a screen reader meets them: each link's
 * accessible name carries the item's title, not its bare key ("APP-1, APP-2" is only codes read
 * out). The entry holds the keys only; the board page reads the titles from the items.
 */
import { expect } from 'chai';
import { describeInBrowser, expectAccessible, axe } from '../../support/browser.js';
import { type BoardWorld, startBoardWorld } from './support.js';

const items = '/v1/workspaces/acme-co/products/APP/items';

describeInBrowser('The changelog’s item links in a browser (e2e)', (browser) => {
  let world: BoardWorld;
  let survivor: string;
  let merged: string;

  before(async () => {
    world = await startBoardWorld();
    const owner = world.fb.api(world.owner.token);
    const file = async (title: string) =>
      (await world.fb.submit(world.ws, 'APP', { title, body: `${title}, please` })).itemKey;
    survivor = await file('Dark mode');
    merged = await file('Night theme');
    const ok = async (path: string, body: unknown) => {
      const res = await owner.post(path, body);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    };
    await ok(`${items}/${survivor}/merge`, { mergedKeys: [merged] });
    await ok(`${items}/${survivor}/status`, { status: 'shipped' });
    await ok(`${items}/${survivor}/changelog`, { title: 'Dark mode is here', publish: true });
  });
  after(() => world.fb.stop());

  it('names each item link by its key and title, the merged item’s too', async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(`${world.fb.url}${world.boardPath}/changelog`);
    const entry = page.locator('article.entry');
    const links = entry.locator('a[href*="/items/"]');
    expect(await links.count()).to.equal(2);
    // the links' accessible names, as the browser computes them for assistive technology
    const tree = await entry.locator('p.meta').last().ariaSnapshot();
    expect(tree).to.include(`link "${survivor} Dark mode"`);
    expect(tree).to.include(`link "${merged} Night theme"`);
    expect(await links.nth(0).getAttribute('href')).to.match(new RegExp(`/items/${survivor}$`));
    expect(await links.nth(1).getAttribute('href')).to.match(new RegExp(`/items/${merged}$`));
    expectAccessible(await axe(page));
    await context.close();
  });
});
