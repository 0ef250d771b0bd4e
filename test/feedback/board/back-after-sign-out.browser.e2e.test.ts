/// <reference lib="dom" />
/**
 * Back after signing out. A page that names a confirmed visitor's address ("Confirmed as …" in
 * the board's capture box) went out `private, no-cache`, and Chrome kept it in its back/forward
 * cache: on a shared computer, the next person pressed Back after the visitor signed out and read
 * their address. Signing out now answers `Clear-Site-Data: "cache"`, which Chromium honours by
 * dropping the origin's back/forward cache and HTTP cache entries, and a confirmed visitor's
 * pages are `private, no-store` (sign-out-copies.e2e.test.ts checks the headers).
 *
 * Playwright launches Chromium with its back/forward cache off (`--disable-back-forward-cache`),
 * which hid the defect: this suite launches it as a visitor has it, with the cache on.
 */
import { expect } from 'chai';
import { type Browser, chromium, type Page } from 'playwright-core';
import { latestCode } from '../../auth/support/browserless.js';
import { chromiumPath, describeInBrowser } from '../../support/browser.js';
import { type BoardWorld, startBoardWorld } from './support.js';

describeInBrowser('Back after signing out (e2e)', () => {
  let world: BoardWorld;
  let board: string;
  let browser: Browser;

  before(async () => {
    world = await startBoardWorld();
    board = `${world.fb.url}${world.boardPath}`;
    browser = await chromium.launch({
      executablePath: chromiumPath()!,
      headless: true,
      args: ['--no-sandbox'],
      ignoreDefaultArgs: ['--disable-back-forward-cache'],
    });
  });
  after(async () => {
    await browser.close();
    await world.fb.stop();
  });

  /** confirms `email` on the identity page, as a visitor does, and lands on the board */
  async function confirm(page: Page, email: string): Promise<void> {
    await page.goto(`${board}/identity`);
    await page.fill('#email', email);
    await Promise.all([page.waitForSelector('#code'), page.click('button[type="submit"]')]);
    await page.fill('#code', latestCode(world.fb.mailboxPath, email));
    await Promise.all([page.waitForURL(board), page.click('button:text("Confirm")')]);
  }

  /** signs out on the identity page, then goes Back `steps` times: what each page shows */
  async function signOutAndGoBack(page: Page, email: string, steps: number): Promise<string[]> {
    await page.goto(`${board}/identity`);
    await Promise.all([page.waitForURL(board), page.click('button:text("Sign out")')]);
    expect(await page.content(), 'after signing out').to.not.include(email);
    const shown: string[] = [];
    for (let step = 0; step < steps; step++) {
      // a page the back/forward cache restores fires no load event: only the commit is awaited;
      // the answer to a post that the browser no longer keeps is not sent again but refused
      // (Chromium: net::ERR_CACHE_MISS, "Confirm Form Resubmission"), and shows nothing of theirs
      const missed = await page
        .goBack({ waitUntil: 'commit' })
        .then(() => false)
        .catch((error: Error) => {
          if (!error.message.includes('net::ERR_CACHE_MISS')) throw error;
          return true;
        });
      if (missed) {
        shown.push('a post not kept: ERR_CACHE_MISS');
        continue;
      }
      await page.waitForFunction(() => document.readyState === 'complete');
      const names = (await page.content()).includes(email);
      shown.push(`${new URL(page.url()).pathname}: ${names ? 'names them' : 'names nobody'}`);
    }
    return shown;
  }

  it('shows no board naming the visitor on Back after they signed out', async () => {
    // task: "sign in, open a page showing the address, sign out, page.goBack(), read the page"
    const email = 'shared-board@customer.example';
    const context = await browser.newContext();
    const page = await context.newPage();
    await confirm(page, email);
    await page.goto(`${board}/roadmap`);
    await page.goto(board);
    expect(await page.textContent('form.capture'), 'the board names them').to.include(email);
    expect(await signOutAndGoBack(page, email, 2)).to.deep.equal([
      '/acme-co/APP/identity: names nobody',
      '/acme-co/APP: names nobody',
    ]);
    await context.close();
  });

  it('shows no refused capture box naming the visitor on Back after they signed out', async () => {
    // the answer to a refused post is kept on purpose (`private, no-cache`: Back shows it
    // instead of sending the form again, back-after-refusal.browser.e2e.test.ts); it names the
    // visitor too, and only clearing the cache at sign-out drops it
    const email = 'shared-refusal@customer.example';
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await confirm(page, email);
    await page.fill('#capture-body', 'Sent at once, too fast.');
    await Promise.all([page.waitForNavigation(), page.click('form.capture button[type="submit"]')]);
    expect(await page.textContent('form.capture [role="alert"]')).to.not.equal(null);
    expect(await page.textContent('form.capture'), 'the refusal names them').to.include(email);
    expect(await signOutAndGoBack(page, email, 2)).to.deep.equal([
      '/acme-co/APP/identity: names nobody',
      'a post not kept: ERR_CACHE_MISS',
    ]);
    await context.close();
  });
});
