/// <reference lib="dom" />
/**
 * The line a board address points at (`#item-<KEY>`, `#merged-<KEY>`) is highlighted, and its
 * text stays readable there: a +1 without JavaScript comes back to `#item-<KEY>`, and a merged
 * item's old address redirects to `#merged-<KEY>` (README "The public board"), so these are
 * pages every visitor sees. README: the pages "pass axe-core with no serious or critical
 * violation (tested in Chromium on every page, both themes)"; WCAG 1.4.3 asks 4.5:1 for text.
 */
import { expect } from 'chai';
import type { ItemStatus } from '../../../commands/item/index.js';
import { axe, describeInBrowser, expectAccessible } from '../../support/browser.js';
import { type BoardWorld, startBoardWorld } from './support.js';

const items = '/v1/workspaces/acme-co/products/APP/items';
const STATUSES: ItemStatus[] = ['new', 'planned', 'in-progress', 'shipped', 'declined'];

describeInBrowser('Highlighted lines of the board (e2e)', (browser) => {
  let world: BoardWorld;
  let board: string;
  const keys = new Map<ItemStatus, string>();
  let survivor: string;
  let merged: string;

  before(async () => {
    world = await startBoardWorld();
    board = `${world.fb.url}${world.boardPath}`;
    const owner = world.fb.api(world.owner.token);
    for (const status of STATUSES) {
      const { itemKey } = await world.fb.submit(world.ws, 'APP', {
        title: `An idea now ${status}`,
        body: 'Worth a vote',
      });
      if (status !== 'new') await owner.post(`${items}/${itemKey}/status`, { status });
      keys.set(status, itemKey);
    }
    survivor = (await world.fb.submit(world.ws, 'APP', { title: 'Dark theme', body: 'dark' }))
      .itemKey;
    merged = (await world.fb.submit(world.ws, 'APP', { title: 'Night mode', body: 'night' }))
      .itemKey;
    await owner.post(`${items}/${survivor}/merge`, { mergedKeys: [merged] });
  });
  after(() => world.fb.stop());

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`keeps the text of a highlighted row readable, whatever its status (${colorScheme})`, async () => {
      const context = await browser().newContext({ colorScheme });
      const page = await context.newPage();
      for (const [status, key] of keys) {
        // where a +1 without JavaScript comes back to
        await page.goto(`${board}#item-${key}`);
        expect(await page.evaluate(() => document.querySelector(':target')?.id)).to.equal(
          `item-${key}`,
        );
        const violations = await axe(page, { include: `#item-${key}` });
        expect(violations, `${status} row`).to.be.an('array');
        expectAccessible(violations);
      }
      await context.close();
    });

    it(`keeps the line naming a merged item readable where its old address leads (${colorScheme})`, async () => {
      const context = await browser().newContext({ colorScheme });
      const page = await context.newPage();
      await page.goto(`${board}/items/${merged}`);
      expect(page.url()).to.equal(`${board}/items/${survivor}#merged-${merged}`);
      expectAccessible(await axe(page, { include: `#merged-${merged}` }));
      await context.close();
    });
  }
});
