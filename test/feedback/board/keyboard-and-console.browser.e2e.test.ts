/// <reference lib="dom" />
/**
 * The board with JavaScript in Chromium, for a keyboard and a screen reader: focus stays on the
 * button that was pressed while board.js posts, the title is described by the suggestions only
 * while they are shown (and they go with the title once it is posted), and a first visit logs
 * nothing to the console (no /favicon.ico 404).
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { chromiumPath, describeInBrowser, launchChromium } from '../../support/browser.js';
import { type BoardWorld, fillTime, startBoardWorld } from './support.js';

describeInBrowser('The board with JavaScript, by keyboard (e2e)', (browser) => {
  let world: BoardWorld;
  let board: string;
  let itemKey: string;

  before(async () => {
    world = await startBoardWorld();
    board = `${world.fb.url}${world.boardPath}`;
    itemKey = (
      await world.fb.submit(world.ws, 'APP', {
        title: 'Keyboard shortcuts',
        body: 'Let me use hotkeys for everything',
      })
    ).itemKey;
  });
  after(() => world.fb.stop());

  const focusedIs = (page: Page, selector: string) =>
    page.evaluate((s) => document.activeElement === document.querySelector(s), selector);

  it('keeps the focus on the +1 button while it is sent and after', async () => {
    // "keyboard focus is lost after +1": a disabled button hands the focus to <body>
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(`${board}/items/${itemKey}`);
    const button = 'form.plus-one button';
    await page.focus(button);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${button}[aria-pressed="true"]`);
    expect(await focusedIs(page, button)).to.equal(true);
    expect(await page.textContent('#announce')).to.equal('+1 added');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${button}[aria-pressed="false"]`);
    expect(await focusedIs(page, button)).to.equal(true);
    expect(await page.getAttribute(button, 'aria-disabled')).to.equal(null);
    await context.close();
  });

  it('keeps the focus on "Post feedback" while it is sent and after', async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(board);
    await page.fill('#capture-body', 'Posted by keyboard.');
    fillTime(world);
    const submit = 'form.capture button[type="submit"]';
    await page.focus(submit);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.form-status a');
    expect(await focusedIs(page, submit)).to.equal(true);
    await context.close();
  });

  it('describes the title by the suggestions only while they are shown', async () => {
    // "aria-describedby pointing at 'Already asked? ...' even when the suggestions are hidden"
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(board);
    const described = () => page.getAttribute('#capture-title', 'aria-describedby');
    expect(await described()).to.equal(null);
    await page.fill('#capture-title', 'keyboard shortcut');
    await page.waitForSelector('.suggestions:not([hidden]) a');
    expect(await described()).to.equal('suggestions-heading');
    await page.fill('#capture-title', 'ke');
    await page.waitForSelector('.suggestions[hidden]', { state: 'attached' });
    expect(await described()).to.equal(null);
    await context.close();
  });

  it('takes the suggestions away with the title once the feedback is posted', async () => {
    // the box emptied for the next idea still showed "Already asked? Add your +1 instead" and the
    // matches of the title just posted, and still described the empty title by them
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(board);
    await page.fill('#capture-title', 'Keyboard shortcuts for the editor');
    await page.waitForSelector('.suggestions:not([hidden]) a');
    await page.fill('#capture-body', 'Posted while suggestions were shown.');
    fillTime(world);
    await page.click('form.capture button[type="submit"]');
    await page.waitForSelector('.form-status a');
    expect(await page.inputValue('#capture-title')).to.equal('');
    expect(await page.isVisible('.suggestions'), 'suggestions still shown').to.equal(false);
    expect(await page.getAttribute('#capture-title', 'aria-describedby')).to.equal(null);
    // and the same title typed again is looked up again
    await page.fill('#capture-title', 'Keyboard shortcuts for the editor');
    await page.waitForSelector('.suggestions:not([hidden]) a');
    await context.close();
  });

  it('logs no console error and requests nothing missing on a first visit', async () => {
    // "Every first page view logs a console error: GET /favicon.ico -> 404". A browser of its
    // own: one that already saw this origin does not ask for the icon again
    const fresh = await launchChromium(chromiumPath()!);
    const page = await fresh.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${board}/items/${itemKey}`, { waitUntil: 'networkidle' });
    // the browser asks for /favicon.ico only after the page loaded: give it time to fail
    await page
      .waitForEvent('console', { predicate: (m) => m.type() === 'error', timeout: 2500 })
      .catch(() => undefined);
    await fresh.close();
    expect(errors).to.deep.equal([]);
  });
});
