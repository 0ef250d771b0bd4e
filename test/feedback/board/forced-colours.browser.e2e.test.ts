/// <reference lib="dom" />
/**
 * The +1 button in forced colours (Windows' contrast themes, `forced-colors: active`): the
 * browser replaces every colour by the theme's own, so the pressed button's fill — all that told
 * a +1 given from one not given — was gone, and a visitor with such a theme could not see which
 * items they had +1'd (WCAG 1.4.1, use of colour; 1.4.11, the state of a control). The pressed
 * button takes the theme's highlight colours.
 */
import { expect } from 'chai';
import { describeInBrowser } from '../../support/browser.js';
import { type BoardWorld, startBoardWorld } from './support.js';

describeInBrowser('The +1 button in forced colours (e2e)', (browser) => {
  let world: BoardWorld;
  let board: string;
  let given: string;

  before(async () => {
    world = await startBoardWorld();
    board = `${world.fb.url}${world.boardPath}`;
    given = (await world.fb.submit(world.ws, 'APP', { title: 'Given a +1', body: 'Yes' })).itemKey;
    await world.fb.submit(world.ws, 'APP', { title: 'Not given one', body: 'No' });
  });
  after(() => world.fb.stop());

  it('shows a pressed +1 apart from one not pressed', async () => {
    const context = await browser().newContext({ forcedColors: 'active' });
    const page = await context.newPage();
    await page.goto(`${board}/items/${given}`);
    await page.click('form.plus-one button');
    await page.waitForSelector('form.plus-one button[aria-pressed="true"]');
    await page.goto(board);
    const looks = await page.$$eval('form.plus-one button', (buttons) =>
      buttons.map((button) => {
        const style = getComputedStyle(button);
        return {
          pressed: button.getAttribute('aria-pressed'),
          look: `${style.backgroundColor} ${style.color} ${style.borderColor}`,
        };
      }),
    );
    expect(looks.map((l) => l.pressed).sort()).to.deep.equal(['false', 'true']);
    expect(looks[0]!.look, JSON.stringify(looks)).to.not.equal(looks[1]!.look);
    await context.close();
  });
});
