/// <reference lib="dom" />
/**
 * Going back past a form the board refused. A refusal is the answer to the post itself (the
 * capture box comes back with the reason and what was typed, the code form with "That code is
 * not right"), and it was sent `no-store`: once the visitor sent the form again and got through,
 * the browser's Back reached a page it had not kept and could only offer to send the form once
 * more (Chromium: net::ERR_CACHE_MISS, "Confirm Form Resubmission") — a code form sent again
 * spends one of the visitor's tries. A page answering a form post is kept in the visitor's own
 * browser (`private, no-cache`), so Back shows it as it was.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { latestCode } from '../../auth/support/browserless.js';
import { describeInBrowser } from '../../support/browser.js';
import { type BoardWorld, fillTime, startBoardWorld } from './support.js';

/**
 * The form posts the page sends to the service from now on; one the browser answers from its
 * own cache (`fromDiskCache`, over the devtools protocol) sends nothing.
 */
async function postsSent(page: Page): Promise<() => string[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const posts = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.request.method === 'POST') posts.set(event.requestId, event.request.url);
  });
  cdp.on('Network.responseReceived', (event) => {
    if (event.response.fromDiskCache) posts.delete(event.requestId);
  });
  return () => [...posts.values()];
}

describeInBrowser('Back past a refused form, without JavaScript (e2e)', (browser) => {
  let world: BoardWorld;
  let board: string;

  before(async () => {
    world = await startBoardWorld();
    board = `${world.fb.url}${world.boardPath}`;
  });
  after(() => world.fb.stop());

  it('goes back from the item filed to the capture box that was refused, without posting again', async () => {
    const context = await browser().newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(board);
    await page.fill('#capture-title', 'Sent too fast');
    await page.fill('#capture-body', 'Posted at once, then again.');
    // sooner than the form's 3 s: refused, the box comes back with what was typed
    await Promise.all([page.waitForNavigation(), page.click('form.capture button[type="submit"]')]);
    expect(await page.textContent('form.capture [role="alert"]')).to.not.equal(null);
    fillTime(world);
    await Promise.all([
      page.waitForURL(/\/items\/APP-\d+$/),
      page.click('form.capture button[type="submit"]'),
    ]);
    const sent = await postsSent(page);
    await page.goBack();
    expect(page.url()).to.equal(`${world.fb.url}/capture/acme-co/APP`);
    expect(await page.inputValue('#capture-title')).to.equal('Sent too fast');
    expect(sent()).to.deep.equal([]);
    await context.close();
  });

  it('goes back from the board to the code form that said a code was wrong', async () => {
    const email = 'back@customer.example';
    const context = await browser().newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${board}/identity`);
    await page.fill('#email', email);
    await Promise.all([page.waitForSelector('#code'), page.click('button[type="submit"]')]);
    const code = latestCode(world.fb.mailboxPath, email);
    await page.fill('#code', code === '000000' ? '111111' : '000000');
    await Promise.all([page.waitForNavigation(), page.click('button:text("Confirm")')]);
    expect(await page.textContent('[role="alert"]')).to.match(/not right/);
    await page.fill('#code', code);
    await Promise.all([page.waitForURL(board), page.click('button:text("Confirm")')]);
    const sent = await postsSent(page);
    await page.goBack();
    expect(await page.textContent('h1')).to.equal('Check your e-mail');
    expect(sent()).to.deep.equal([]);
    await context.close();
  });
});
