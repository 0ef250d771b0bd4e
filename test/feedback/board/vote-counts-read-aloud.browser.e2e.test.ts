/// <reference lib="dom" />
/**
 * A vote count as a screen reader reads it: "3 votes", never the "▲" drawn before it ("black
 * up-pointing triangle 3 votes"). The +1 button hides its triangle from assistive technology
 * (views/parts.tsx); the roadmap and the suggestions shown while a title is typed read it out
 * (WCAG 1.1.1: a glyph that only decorates is hidden from assistive technology).
 */
import { expect } from 'chai';
import { describeInBrowser } from '../../support/browser.js';
import { type BoardWorld, startBoardWorld } from './support.js';

describeInBrowser('Vote counts read aloud (e2e)', (browser) => {
  let world: BoardWorld;
  let board: string;

  before(async () => {
    world = await startBoardWorld();
    board = `${world.fb.url}${world.boardPath}`;
    const { itemKey } = await world.fb.submit(world.ws, 'APP', {
      title: 'Dark mode',
      body: 'Easier on the eyes at night',
    });
    await world.fb
      .api(world.owner.token)
      .post(`/v1/workspaces/acme-co/products/APP/items/${itemKey}/status`, { status: 'planned' });
  });
  after(() => world.fb.stop());

  it('reads a roadmap entry as its title and "0 votes"', async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(`${board}/roadmap`);
    const read = await page.locator('.column-planned li').ariaSnapshot();
    expect(read).to.include('text: 0 votes').and.not.include('▲');
    await context.close();
  });

  it('reads a suggestion as its title, its status and "0 votes", and still shows the ▲', async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(board);
    await page.fill('#capture-title', 'dark mode');
    await page.waitForSelector('.suggestions:not([hidden]) a');
    const read = await page.locator('.suggestions li').ariaSnapshot();
    // the snapshot joins the text of neighbouring elements with a space
    expect(read)
      .to.match(/\(Planned, 0 votes ?\)/)
      .and.not.include('▲');
    expect(await page.locator('.suggestions li [aria-hidden="true"]').textContent()).to.equal('▲');
    await context.close();
  });
});
