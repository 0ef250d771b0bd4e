/// <reference lib="dom" />
/**
 * The items suggested while a title is typed ("Already asked? Add your +1 instead") say where
 * each one stands: a visitor about to ask for dark mode is told it shipped, or was declined,
 * before a +1 asks for it again. The suggestions showed titles and +1 counts only, so a shipped
 * item was offered as one still to be asked for.
 */
import { expect } from 'chai';
import { describeInBrowser } from '../../support/browser.js';
import { type BoardWorld, startBoardWorld } from './support.js';

const items = '/v1/workspaces/acme-co/products/APP/items';

describeInBrowser('Suggestions while a title is typed (e2e)', (browser) => {
  let world: BoardWorld;
  let board: string;

  before(async () => {
    world = await startBoardWorld();
    board = `${world.fb.url}${world.boardPath}`;
    const owner = world.fb.api(world.owner.token);
    const { itemKey } = await world.fb.submit(world.ws, 'APP', {
      title: 'Dark mode',
      body: 'A dark theme for the night',
    });
    await owner.post(`${items}/${itemKey}/status`, { status: 'shipped' });
  });
  after(() => world.fb.stop());

  it('names the status of each item suggested', async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(board);
    await page.fill('#capture-title', 'dark mode');
    await page.waitForSelector('.suggestions:not([hidden]) li');
    expect(await page.textContent('.suggestions li')).to.equal('Dark mode (Shipped, ▲ 0 votes)');
    await context.close();
  });
});
