/// <reference lib="dom" />
/**
 * The code as a visitor brings it from the mail. The identity page takes "the 6 digits typed
 * (spaces around them aside)" (identity-routes.ts) and answers anything else with a sentence
 * saying what a code is; the form itself held `maxlength="6"` and `pattern="[0-9]{6}"`, so a
 * code pasted with the space before it that a mail client's selection takes along was cut to
 * " 12345" and the browser refused to send it ("Please match the requested format"), a message
 * the visitor could do nothing with.
 */
import { expect } from 'chai';
import { latestCode } from '../../auth/support/browserless.js';
import { describeInBrowser } from '../../support/browser.js';
import { type BoardWorld, startBoardWorld } from './support.js';

describeInBrowser('The confirmation code pasted from the mail (e2e)', (browser) => {
  let world: BoardWorld;
  let board: string;

  before(async () => {
    world = await startBoardWorld();
    board = `${world.fb.url}${world.boardPath}`;
  });
  after(() => world.fb.stop());

  const askForCode = async (email: string) => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto(`${board}/identity`);
    await page.fill('#email', email);
    await Promise.all([page.waitForSelector('#code'), page.click('button[type="submit"]')]);
    return { context, page };
  };

  it('confirms the address with a code pasted with spaces around it', async () => {
    const email = 'paste@customer.example';
    const { context, page } = await askForCode(email);
    await page.focus('#code');
    // a paste: the text arrives at once, as typed text does, within the field's maxlength
    await page.keyboard.insertText(` ${latestCode(world.fb.mailboxPath, email)} `);
    await Promise.all([
      page.waitForURL(board, { timeout: 5_000 }),
      page.click('button:text("Confirm")'),
    ]);
    expect(await page.textContent('form.capture')).to.include(email);
    await context.close();
  });

  it('sends what is not a code to the service, which says what a code is', async () => {
    const { context, page } = await askForCode('letters@customer.example');
    await page.fill('#code', '12ab56');
    await Promise.all([page.waitForURL(/\/identity\/code$/), page.click('button:text("Confirm")')]);
    expect(await page.textContent('[role="alert"]')).to.equal(
      'The code is the 6 digits in the e-mail we sent; type them again.',
    );
    await context.close();
  });
});
