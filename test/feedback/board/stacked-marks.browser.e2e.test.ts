/// <reference lib="dom" />
/**
 * A title or reply stacking combining marks ("Z̷̢̛a̸l̵g̶o", allowed: they are letters' accents)
 * draws its marks far above and below its own line. The board keeps that ink in the item's own
 * row: it covered the status and reply count of the item listed above it, so one visitor's title
 * could hide what the board says of another's item.
 */
import { expect } from 'chai';
import type { BrowserContext, Locator } from 'playwright-core';
import { describeInBrowser } from '../../support/browser.js';
import { type BoardWorld, startBoardWorld } from './support.js';

const items = '/v1/workspaces/acme-co/products/APP/items';
/** 60 combining marks (U+0300…), stacked on one letter */
const MARKS = Array.from({ length: 60 }, (_, i) => String.fromCodePoint(0x300 + i)).join('');
/** the light theme's link colour (--accent, #0757c2): the stacked title is a link */
const LINK = [7, 87, 194];

/** how many pixels of `element`, as the screen shows it, are near the link colour */
async function linkColouredPixels(context: BrowserContext, element: Locator): Promise<number> {
  const png = (await element.screenshot()).toString('base64');
  const blank = await context.newPage();
  const count = await blank.evaluate(
    async ({ png, link }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${png}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const draw = canvas.getContext('2d')!;
      draw.drawImage(image, 0, 0);
      const { data } = draw.getImageData(0, 0, image.width, image.height);
      let near = 0;
      for (let i = 0; i < data.length; i += 4) {
        if ([0, 1, 2].every((c) => Math.abs(data[i + c]! - link[c]!) < 40)) near++;
      }
      return near;
    },
    { png, link: LINK },
  );
  await blank.close();
  return count;
}

describeInBrowser('Stacked combining marks on the board (e2e)', (browser) => {
  let world: BoardWorld;
  let board: string;
  let newest: string;

  before(async () => {
    world = await startBoardWorld();
    board = `${world.fb.url}${world.boardPath}`;
    const owner = world.fb.api(world.owner.token);
    const stacked = await world.fb.submit(world.ws, 'APP', {
      title: `Z${MARKS}a${MARKS}lgo`,
      body: 'Look at my title',
    });
    newest = (await world.fb.submit(world.ws, 'APP', { title: 'Export to CSV', body: 'Please' }))
      .itemKey;
    for (const key of [stacked.itemKey, newest]) {
      await owner.post(`${items}/${key}/status`, { status: 'planned' });
    }
  });
  after(() => world.fb.stop());

  it('keeps a stacked title’s marks off the status line of the item listed above it', async () => {
    const context = await browser().newContext({ colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`${board}?sort=new`);
    // "Planned · 0 replies": its own text holds no link colour
    const above = page.locator(`#item-${newest} .meta`);
    expect(await above.textContent()).to.equal('Planned · 0 replies');
    expect(await linkColouredPixels(context, above)).to.equal(0);
    await context.close();
  });
});
