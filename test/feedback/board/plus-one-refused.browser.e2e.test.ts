/// <reference lib="dom" />
/**
 * A +1 the board refuses (the per-IP limit, PLUS_ONES_PER_IP_PER_HOUR in bursts of a tenth) with
 * JavaScript on: the reason is shown on the page, not only told to a screen reader, and the
 * refusal leaves the visitor as they were, so the next press works once the limit allows it
 * (the refused request had minted a visitor cookie the page's empty form token did not fit,
 * and every later press was refused as "the page is out of date").
 */
import { expect } from 'chai';
import { describeInBrowser } from '../../support/browser.js';
import { type BoardWorld, startBoardWorld } from './support.js';

describeInBrowser('A refused +1 in a browser (e2e)', (browser) => {
  let world: BoardWorld;
  let board: string;
  let itemKey: string;

  before(async () => {
    world = await startBoardWorld({ PLUS_ONES_PER_IP_PER_HOUR: '10' });
    board = `${world.fb.url}${world.boardPath}`;
    ({ itemKey } = await world.fb.submit(world.ws, 'APP', { title: 'Dark mode', body: 'Please' }));
  });
  after(() => world.fb.stop());

  it('shows why, keeps no cookie, and the next press works once the limit allows', async () => {
    // this IP's burst, used up by someone else (a script without a browser)
    const press = () =>
      fetch(`${board}/items/${itemKey}/plus-one`, {
        method: 'POST',
        headers: { accept: 'application/json' },
        body: new URLSearchParams({ back: 'item' }),
      });
    for (let i = 0; i < 20 && (await press()).status !== 429; i++);
    expect((await press()).status).to.equal(429);

    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(board);
    const button = page.locator(`form.plus-one button`).first();
    await button.click();
    const notice = page.locator('#notice');
    await notice.waitFor({ state: 'visible' });
    // the notice is a sentence of its own: capitalized, as the pages show it
    expect(await notice.textContent()).to.match(/^Too many \+1s/);
    expect(await button.getAttribute('aria-pressed')).to.equal('false');
    expect((await context.cookies()).map((c) => c.name)).to.not.include('board_visitor');

    world.fb.clock.advance(60 * 60 * 1000);
    await button.click();
    await page.waitForSelector('form.plus-one button[aria-pressed="true"]');
    expect(await notice.isVisible()).to.equal(false);
    await context.close();
  });
});
