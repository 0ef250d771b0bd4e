/// <reference lib="dom" />
/**
 * A +1 pressed without JavaScript far down the board's list: the form posts and the board is
 * shown again (README: a +1 form "comes back to this very list"), at the row pressed
 * (`#item-<KEY>`), so the visitor is where they were and sees their +1 counted. It came back to
 * the top of the list, and on a long list the visitor had to find their place again to see
 * whether the press had done anything.
 */
import { expect } from 'chai';
import { describeInBrowser } from '../../support/browser.js';
import { type BoardWorld, startBoardWorld } from './support.js';

describeInBrowser('A +1 without JavaScript, far down the list (e2e)', (browser) => {
  let world: BoardWorld;
  let board: string;

  before(async () => {
    world = await startBoardWorld();
    board = `${world.fb.url}${world.boardPath}`;
    for (let i = 0; i < 15; i++) {
      await world.fb.submit(world.ws, 'APP', {
        title: `Idea number ${i}`,
        body: `Details of idea ${i}`,
      });
    }
  });
  after(() => world.fb.stop());

  it('comes back to the row pressed, in view, its +1 counted', async () => {
    const context = await browser().newContext({
      javaScriptEnabled: false,
      viewport: { width: 800, height: 600 },
    });
    const page = await context.newPage();
    // the newest first: the first item filed is the last row
    await page.goto(`${board}?sort=new`);
    const row = page.locator('li.item').last();
    expect(await row.locator('a.title').textContent()).to.equal('Idea number 0');
    const first = await page.locator('li.item a.title').first().textContent();
    expect(first).to.equal('Idea number 14');
    const key = (await row.locator('a.title').getAttribute('href'))!.split('/').pop()!;
    // the form's post, then the board its 303 leads to
    await Promise.all([
      page.waitForRequest((req) => req.isNavigationRequest() && req.method() === 'GET'),
      row.locator('form.plus-one button').click(),
    ]);
    await page.waitForLoadState('load');
    expect(page.url()).to.equal(`${board}?sort=new#item-${key}`);
    const pressed = page.locator(`#item-${key} form.plus-one button`);
    expect(await pressed.getAttribute('aria-pressed')).to.equal('true');
    expect(await pressed.locator('.count').textContent()).to.equal('1');
    const box = (await pressed.boundingBox())!;
    expect(box.y, 'the row pressed is in view').to.be.within(0, 600 - box.height);
    await context.close();
  });
});
