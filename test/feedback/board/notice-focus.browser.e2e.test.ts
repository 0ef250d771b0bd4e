/// <reference lib="dom" />
/**
 * The notice board.js shows a refusal in is fixed to the bottom of the window; on a narrow one it
 * may be several lines tall. WCAG 2.2 SC 2.4.11 Focus Not Obscured (Minimum): a control the
 * keyboard focuses is not hidden by it — tabbed to the last +1 button on the board, the button's
 * box is clear of the notice's.
 */
import { expect } from 'chai';
import { describeInBrowser } from '../../support/browser.js';
import { type BoardWorld, startBoardWorld } from './support.js';

describeInBrowser('The fixed notice and the keyboard focus (e2e)', (browser) => {
  let world: BoardWorld;
  let board: string;

  before(async () => {
    world = await startBoardWorld({ PLUS_ONES_PER_IP_PER_HOUR: '10' });
    board = `${world.fb.url}${world.boardPath}`;
    for (let i = 0; i < 8; i++) {
      await world.fb.submit(world.ws, 'APP', { title: `Idea ${i}`, body: `Body of idea ${i}` });
    }
  });
  after(() => world.fb.stop());

  it('keeps the focused +1 button at the foot of the board clear of the notice', async () => {
    // this IP's +1s used up by someone else, so the visitor's press is refused with a notice
    const press = () =>
      fetch(`${board}/items/APP-1/plus-one`, {
        method: 'POST',
        headers: { accept: 'application/json' },
        body: new URLSearchParams({ back: 'board' }),
      });
    for (let i = 0; i < 20 && (await press()).status !== 429; i++);

    const context = await browser().newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    await page.goto(board);
    const buttons = page.locator('form.plus-one button');
    await buttons.first().click();
    const notice = page.locator('#notice');
    await notice.waitFor({ state: 'visible' });
    const count = await buttons.count();
    const last = buttons.nth(count - 1);
    for (let i = 0; i < 200; i++) {
      if (await last.evaluate((button) => button === document.activeElement)) break;
      await page.keyboard.press('Tab');
    }
    expect(await last.evaluate((button) => button === document.activeElement)).to.equal(true);
    const focused = (await last.boundingBox())!;
    const box = (await notice.boundingBox())!;
    // the notice is there and takes a good part of a narrow window's foot
    expect(box.height).to.be.greaterThan(30);
    expect(
      focused.y + focused.height,
      `the focused button (${focused.y}–${focused.y + focused.height}) under the notice (from ${box.y})`,
    ).to.be.at.most(box.y);
    await context.close();
  });
});
