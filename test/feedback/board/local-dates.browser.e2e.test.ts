/// <reference lib="dom" />
/**
 * Dates on the board in a visitor's own time zone (Chromium emulating one). A page is the same
 * for every visitor, so the server writes each date as its UTC day and says so ("2026-11-29
 * UTC"), inside `<time datetime="…">`; board.js rewrites it in the visitor's time zone and
 * locale. The dates were bare UTC days: a visitor in Tokyo saw yesterday's date for a reply made
 * that morning, and nothing told them the date was not theirs.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { describeInBrowser } from '../../support/browser.js';
import { type BoardWorld, startBoardWorld } from './support.js';

const items = '/v1/workspaces/acme-co/products/APP/items';
const DAY = 86_400_000;

describeInBrowser('Dates on the board in the visitor’s time zone (e2e)', (browser) => {
  let world: BoardWorld;
  let board: string;
  let itemKey: string;
  /** when it all happened: 20:00 UTC, already the next day in Tokyo (UTC+9) */
  let at: number;

  before(async () => {
    world = await startBoardWorld();
    const { clock } = world.fb;
    const now = clock.now();
    at = Math.floor(now / DAY) * DAY + 20 * 3_600_000;
    if (at <= now) at += DAY;
    clock.advance(at - now);
    board = `${world.fb.url}${world.boardPath}`;
    const owner = world.fb.api(world.owner.token);
    ({ itemKey } = await world.fb.submit(world.ws, 'APP', { title: 'Bulk edit', body: 'Many' }));
    await owner.post(`${items}/${itemKey}/replies`, { body: 'On our list.' });
    await owner.post(`${items}/${itemKey}/status`, { status: 'shipped' });
    await owner.post(`${items}/${itemKey}/changelog`, {
      title: 'Bulk edit is here',
      publish: true,
    });
  });
  after(() => world.fb.stop());

  /** the texts and `datetime`s of the page's dates: the item's and its reply's, or the entry's */
  const datesOn = (page: Page) =>
    page.$$eval('time', (times) =>
      times.map((t) => ({ text: t.textContent, datetime: t.getAttribute('datetime') })),
    );

  const utcDay = () => new Date(at).toISOString().slice(0, 10);

  it('shows each date in the visitor’s time zone and locale with JavaScript on', async () => {
    const context = await browser().newContext({ timezoneId: 'Asia/Tokyo', locale: 'en-GB' });
    const page = await context.newPage();
    // the next day in Tokyo, as a visitor there writes it
    const local = new Date(at + DAY).toLocaleDateString('en-GB', {
      dateStyle: 'medium',
      timeZone: 'UTC',
    });
    for (const path of [`/items/${itemKey}`, '/changelog']) {
      await page.goto(`${board}${path}`);
      const dates = await datesOn(page);
      expect(dates.length, path).to.be.greaterThan(0);
      for (const date of dates) {
        expect(Math.abs(Date.parse(date.datetime!) - at), path).to.be.lessThan(60_000);
        expect(date.text, path).to.equal(local);
      }
    }
    await context.close();
  });

  it('says the date is UTC without JavaScript', async () => {
    const context = await browser().newContext({
      timezoneId: 'Asia/Tokyo',
      locale: 'en-GB',
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    for (const path of [`/items/${itemKey}`, '/changelog']) {
      await page.goto(`${board}${path}`);
      const dates = await datesOn(page);
      expect(dates.length, path).to.be.greaterThan(0);
      for (const date of dates) expect(date.text, path).to.equal(`${utcDay()} UTC`);
    }
    await context.close();
  });
});
