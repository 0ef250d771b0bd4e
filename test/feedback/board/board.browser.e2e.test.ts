/// <reference lib="dom" />
/**
 * The public board in a real browser (Debian's chromium through playwright-core), issue 12
 * "Must show": filing with JavaScript off (the form posts and redirects) and on (no reload,
 * suggestions while typing), +1 toggles, axe-core on every page in light and dark with no
 * serious or critical violation, and screenshots under test-output/screenshots/.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { latestCode } from '../../auth/support/browserless.js';
import { axe, describeInBrowser, expectAccessible, screenshot } from '../../support/browser.js';
import type { Api } from '../support/harness.js';
import { type BoardWorld, fillTime, startBoardWorld } from './support.js';

const items = '/v1/workspaces/acme-co/products/APP/items';

describeInBrowser('The public board in a browser (e2e)', (browser) => {
  let world: BoardWorld;
  let owner: Api;
  let board: string;
  let itemKey: string;

  before(async () => {
    world = await startBoardWorld();
    owner = world.fb.api(world.owner.token);
    board = `${world.fb.url}${world.boardPath}`;
    const file = async (title: string, body: string) =>
      (await world.fb.submit(world.ws, 'APP', { title, body })).itemKey;
    itemKey = await file('Keyboard shortcuts', 'Let me use hotkeys for everything');
    const planned = await file('Calendar view', 'See items by date');
    const shipped = await file('Bulk edit', 'Edit many at once');
    await owner.post(`${items}/${planned}/status`, { status: 'planned' });
    await owner.post(`${items}/${shipped}/status`, { status: 'shipped' });
    await owner.post(`${items}/${shipped}/changelog`, {
      title: 'Bulk edit is here',
      publish: true,
    });
    const reply = await owner.post(`${items}/${itemKey}/replies`, { body: 'On our list for May.' });
    await owner.post(`${items}/${itemKey}/replies`, {
      body: 'Thanks!',
      parentId: reply.body.replyId,
    });
  });
  after(() => world.fb.stop());

  const find = async (title: string) =>
    (
      (await owner.get(`${items}?pageSize=200`)).body.items as {
        id: string;
        title: string;
        via?: string;
        author: { tier: string };
      }[]
    ).find((i) => i.title === title);

  it('files feedback with JavaScript off: the form posts and redirects to the item, no via, tier anonymous', async () => {
    const context = await browser().newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(board);
    await page.fill('#capture-title', 'Works without scripts');
    await page.fill('#capture-body', 'Filed from a plain form.');
    fillTime(world);
    await Promise.all([
      page.waitForURL(/\/items\/APP-\d+$/),
      page.click('form.capture button[type="submit"]'),
    ]);
    expect(await page.textContent('h1')).to.equal('Works without scripts');
    const item = await find('Works without scripts');
    expect(item).to.not.have.property('via');
    expect(item!.author.tier).to.equal('anonymous');
    await context.close();
  });

  it('files feedback with JavaScript on without reloading, suggesting existing items while the title is typed', async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(board);
    await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 42;
    });
    await page.fill('#capture-title', 'keyboard shortcut');
    await page.waitForSelector('.suggestions:not([hidden]) a');
    expect(await page.textContent('.suggestions a')).to.equal('Keyboard shortcuts');
    await page.fill('#capture-title', 'Scripts on');
    await page.fill('#capture-body', 'Filed without a reload.');
    fillTime(world);
    await page.click('form.capture button[type="submit"]');
    await page.waitForSelector('.form-status a');
    // the same document: nothing reloaded
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).to.equal(
      42,
    );
    expect(await page.textContent('.form-status a')).to.equal('Scripts on');
    const item = await find('Scripts on');
    expect(item).to.not.have.property('via');
    await context.close();
  });

  it('files what is typed in a board left open past the form’s 2 days, without a reload', async () => {
    // README: a form token is "refused … after 2 days"; a tab left open over a weekend answered
    // "the form is out of date; reload the page" with JavaScript on, and a reload lost the title
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(board);
    const threeDays = 3 * 24 * 60 * 60 * 1000;
    world.fb.clock.advance(threeDays);
    await page.clock.fastForward(threeDays);
    const token = () => page.inputValue('form.capture input[name="formToken"]');
    const friday = await token();
    await page.fill('#capture-title', 'Left open all weekend');
    await page.fill('#capture-body', 'Typed on Monday into the page of Friday.');
    // the renewal is a request of its own: sent once it is back (or given up after 3 s)
    for (let waited = 0; waited < 3_000 && (await token()) === friday; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    fillTime(world);
    await page.clock.fastForward(4_000);
    await page.click('form.capture button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('.form-status')?.textContent);
    expect(await page.textContent('.form-status')).to.equal(
      'Thanks! Your feedback is posted: Left open all weekend',
    );
    await context.close();
  });

  it('files and +1s from tabs shown before a +1 in another tab made the visitor', async () => {
    // those tabs' forms carry no token of the visitor the other tab's +1 made: they answered
    // "the page is out of date; reload it and send the form again", and a reload lost the text
    const context = await browser().newContext();
    const filing = await context.newPage();
    await filing.goto(board);
    const voting = await context.newPage();
    await voting.goto(board);
    const item = await context.newPage();
    await item.goto(`${board}/items/${itemKey}`);
    await item.click('form.plus-one button');
    await item.waitForSelector('form.plus-one button[aria-pressed="true"]');
    await voting.bringToFront();
    await voting.locator('li.item', { hasText: 'Calendar view' }).locator('button').click();
    // what was done is announced; a refusal is shown in the notice
    const said = () =>
      document.querySelector('#announce')?.textContent ||
      document.querySelector('#notice')?.textContent;
    expect(await (await voting.waitForFunction(said)).jsonValue()).to.equal('+1 added');
    await filing.bringToFront();
    await filing.fill('#capture-title', 'Filed from an older tab');
    await filing.fill('#capture-body', 'Shown before another tab made me a visitor.');
    fillTime(world);
    await filing.click('form.capture button[type="submit"]');
    await filing.waitForFunction(() => document.querySelector('.form-status')?.textContent);
    expect(await filing.textContent('.form-status')).to.equal(
      'Thanks! Your feedback is posted: Filed from an older tab',
    );
    await context.close();
  });

  it('files as tier email once the visitor confirmed the code sent to the address', async () => {
    // issue 12: "with the e-mail confirmed, tier `email`"
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(board);
    await Promise.all([
      page.waitForURL(/\/identity$/),
      page.click('text=Confirm your e-mail address'),
    ]);
    await page.fill('#email', 'lee@customer.example');
    await Promise.all([page.waitForSelector('#code'), page.click('button[type="submit"]')]);
    await page.fill('#code', latestCode(world.fb.mailboxPath, 'lee@customer.example'));
    await Promise.all([page.waitForURL(board), page.click('button[type="submit"]')]);
    expect(await page.textContent('form.capture')).to.include('lee@customer.example');
    await page.fill('#capture-title', 'Confirmed in a browser');
    await page.fill('#capture-body', 'Filed with a proven address.');
    fillTime(world);
    await page.click('form.capture button[type="submit"]');
    await page.waitForSelector('.form-status a');
    expect((await find('Confirmed in a browser'))!.author.tier).to.equal('email');
    // README: a confirmed visitor may sign out ("Not you? Sign out" beside their address)
    await Promise.all([page.waitForURL(/\/identity$/), page.click('text=Not you? Sign out')]);
    expectAccessible(await axe(page));
    await Promise.all([page.waitForURL(board), page.click('button:text("Sign out")')]);
    expect(await page.textContent('form.capture')).to.include('Posting anonymously');
    expect((await context.cookies()).map((c) => c.name)).to.not.include('board_visitor');
    await context.close();
  });

  it('toggles a +1 without reloading and counts it once', async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(`${board}/items/${itemKey}`);
    const button = page.locator('form.plus-one button');
    const before = Number(await button.locator('.count').textContent());
    await button.click();
    await page.waitForSelector('form.plus-one button[aria-pressed="true"]');
    expect(Number(await button.locator('.count').textContent())).to.equal(before + 1);
    expect((await owner.get(`${items}/${itemKey}`)).body.item.plusOneCount).to.equal(before + 1);
    await button.click();
    await page.waitForSelector('form.plus-one button[aria-pressed="false"]');
    expect((await owner.get(`${items}/${itemKey}`)).body.item.plusOneCount).to.equal(before);
    await context.close();
  });

  it('keeps a +1 given in another tab when the older tab’s button, showing none, is pressed', async () => {
    // the +1 is a toggle on the server: the older tab's press withdrew it, one vote fewer, and
    // said "Nothing changed"
    const { itemKey: key } = await world.fb.submit(world.ws, 'APP', {
      title: 'Two tabs, one vote',
      body: 'Voted twice',
    });
    const context = await browser().newContext();
    const older = await context.newPage();
    await older.goto(`${board}/items/${key}`);
    const newer = await context.newPage();
    await newer.goto(`${board}/items/${key}`);
    await newer.click('form.plus-one button');
    await newer.waitForSelector('form.plus-one button[aria-pressed="true"]');
    await older.bringToFront();
    await older.click('form.plus-one button');
    await older.waitForFunction(() => document.querySelector('#announce')?.textContent);
    expect(await older.getAttribute('form.plus-one button', 'aria-pressed')).to.equal('true');
    expect((await owner.get(`${items}/${key}`)).body.item.plusOneCount).to.equal(1);
    await context.close();
  });

  it('has no serious or critical axe violation on any page, light or dark, and saves screenshots', async () => {
    // issue 12: "axe-core run in the browser on every page reports no serious or critical violation"
    const pages: [string, string][] = [
      ['board', board],
      ['item', `${board}/items/${itemKey}`],
      ['roadmap', `${board}/roadmap`],
      ['changelog', `${board}/changelog`],
      ['identity', `${board}/identity`],
      ['not-found', `${world.fb.url}/acme-co/SEC`],
    ];
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser().newContext({
        colorScheme,
        viewport: { width: 1000, height: 900 },
      });
      const page: Page = await context.newPage();
      for (const [name, url] of pages) {
        await page.goto(url);
        const violations = await axe(page);
        expect(violations, `${name} (${colorScheme})`).to.be.an('array');
        expectAccessible(violations);
        if (name === 'board' || name === 'item')
          await screenshot(page, `board-${name}-${colorScheme}`);
      }
      await context.close();
    }
  });

  it('fits a phone screen whatever a visitor titled or named things: long words wrap', async () => {
    // what visitors type: a pasted link, an error path, a name with no spaces
    const link =
      'Broken link on https://example.com/docs/getting-started/installation-guide-for-windows';
    const unbroken = `Crash_${'x'.repeat(190)}`;
    const { itemKey: linked } = await world.fb.submit(world.ws, 'APP', {
      title: link,
      body: 'The page answers 404.',
      email: 'handle@customer.example',
      displayName: `Someone${'_with_a_very_long_handle'.repeat(3)}`,
    });
    const { itemKey: long } = await world.fb.submit(world.ws, 'APP', {
      title: unbroken,
      body: 'Stack trace attached.',
    });
    await owner.post(`${items}/${linked}/status`, { status: 'shipped' });
    await owner.post(`${items}/${linked}/changelog`, { publish: true });
    const context = await browser().newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    for (const url of [
      board,
      `${board}/items/${linked}`,
      `${board}/items/${long}`,
      `${board}/changelog`,
    ]) {
      await page.goto(url);
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        screen: document.documentElement.clientWidth,
      }));
      expect(widths.page, url).to.be.at.most(widths.screen);
    }
    await context.close();
  });
});
