/// <reference lib="dom" />
/**
 * Right-to-left text on the board's left-to-right pages. A visitor's Hebrew or Arabic title,
 * body or reply is laid out right to left in an element of its own (HTML `dir="auto"`): laid out
 * in the page's direction, "למה אין מצב כהה?" showed its question mark at the start of the
 * sentence, and the numbers written after such a title took its direction, so the roadmap and
 * the suggestions showed an item's vote count before its title (WCAG 1.3.2, meaningful
 * sequence). README "The public board": the pages show what visitors wrote, as text.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { describeInBrowser } from '../../support/browser.js';
import { type BoardWorld, startBoardWorld } from './support.js';

const items = '/v1/workspaces/acme-co/products/APP/items';
const TITLE = 'למה אין מצב כהה?';
const BODY = 'אני עובד בלילה והמסך בהיר מדי.';

/** the direction each element matching `selector` is laid out in */
const directions = (page: Page, selector: string) =>
  page.$$eval(selector, (elements) => elements.map((e) => getComputedStyle(e).direction));

/** whether the text after the link in each `selector` is shown after it (to its right) */
const textAfterLink = (page: Page, selector: string) =>
  page.$$eval(selector, (lines) =>
    lines.map((line) => {
      const link = line.querySelector('a')!.getBoundingClientRect();
      const range = document.createRange();
      range.setStartAfter(line.querySelector('a')!);
      range.setEnd(line, line.childNodes.length);
      return range.getBoundingClientRect().left >= link.right - 1;
    }),
  );

describeInBrowser('Right-to-left text on the board (e2e)', (browser) => {
  let world: BoardWorld;
  let board: string;
  let key: string;

  before(async () => {
    world = await startBoardWorld();
    board = `${world.fb.url}${world.boardPath}`;
    const owner = world.fb.api(world.owner.token);
    key = (await world.fb.submit(world.ws, 'APP', { title: TITLE, body: BODY, displayName: 'אבי' }))
      .itemKey;
    await owner.post(`${items}/${key}/replies`, { body: 'תודה, זה בתכנון.' });
    await owner.post(`${items}/${key}/status`, { status: 'shipped' });
    await owner.post(`${items}/${key}/changelog`, { title: 'מצב כהה כאן', publish: true });
  });
  after(() => world.fb.stop());

  it('lays out a right-to-left title, body and reply right to left, on every page that shows them', async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(board);
    expect(await directions(page, `#item-${key} a.title`), 'board row').to.deep.equal(['rtl']);
    await page.goto(`${board}/items/${key}`);
    expect(await directions(page, 'h1, .item-page > .text, .reply .text')).to.deep.equal([
      'rtl',
      'rtl',
      'rtl',
    ]);
    await page.goto(`${board}/changelog`);
    expect(await directions(page, '.entry h2'), 'changelog entry').to.deep.equal(['rtl']);
    // the page's own words stay left to right
    expect(await directions(page, 'main > h1')).to.deep.equal(['ltr']);
    await context.close();
  });

  it('shows the vote count after a right-to-left title on the roadmap and in the suggestions', async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(`${board}/roadmap`);
    expect(await textAfterLink(page, '.column-shipped li'), 'roadmap').to.deep.equal([true]);
    await page.goto(board);
    await page.fill('#capture-title', 'מצב כהה');
    await page.waitForSelector('.suggestions:not([hidden]) a');
    expect(await textAfterLink(page, '.suggestions li'), 'suggestions').to.deep.equal([true]);
    await context.close();
  });

  it('lays out what is typed into the capture box and the search in its own direction', async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(board);
    for (const field of ['#capture-title', '#capture-body', '#capture-name', '#q']) {
      expect(await page.getAttribute(field, 'dir'), field).to.equal('auto');
    }
    await context.close();
  });
});
