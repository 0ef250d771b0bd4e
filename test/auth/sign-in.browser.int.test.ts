/**
 * The real sign-in and consent pages in headless Chromium: e-mail → code from the dev mailbox →
 * consent naming the client → back at the client with a code openid-client can exchange.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import { feedbackAuthPreset } from '../../src/auth/index.js';
import { latestCode } from './support/browserless.js';
import { exchange, registerClient, startAuthorization } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';

const CHROMIUM = '/usr/bin/chromium';
const EMAIL = 'browser@example.com';

describe('When a person signs in through the real pages in a browser', function () {
  this.timeout(60_000);
  let h: Harness;
  let browser: Browser;

  before(async function () {
    if (!fs.existsSync(CHROMIUM)) {
      console.log(`      (skipped: ${CHROMIUM} is missing; install Debian's chromium package)`);
      this.skip();
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    h = await startHarness({ ...feedbackAuthPreset, serviceName: 'Feedback board' });
  });
  after(async () => {
    await browser?.close();
    await h?.close();
  });

  it('signs in with an e-mail code, grants consent and returns to the client with a code', async () => {
    const config = await registerClient(h.base, { name: 'Claude <Desktop>' });
    const pending = await startAuthorization(config, h.base, 'openid service.public');
    const page = await browser.newPage();

    await page.goto(pending.url);
    expect(await page.textContent('h1')).to.equal('Sign in to Feedback board');
    await page.fill('#email', EMAIL);
    await page.click('button[type=submit]:has-text("Send me a sign-in code")');
    await page.waitForSelector('#code');
    // pasted out of the mail with the spaces the selection took along: the field takes them
    // (no 6-character cut, no pattern holding the form back), the service trims them
    await page.fill('#code', ` ${latestCode(h.mailboxPath, EMAIL)} `);
    await page.click('button:has-text("Sign in")');

    await page.waitForSelector('#approve');
    // spec-derived: "A consent page names the client and the scopes" (escaped, not interpreted)
    expect(await page.textContent('#client-name')).to.equal('Claude <Desktop>');
    expect(await page.textContent('#scopes')).to.include('Post feedback and read public roadmaps');
    await page.click('#approve');

    await page.waitForSelector('#done');
    const callback = new URL(page.url());
    expect(callback.searchParams.get('code')).to.be.a('string');
    const tokens = await exchange(config, callback, pending);
    const verified = await h.auth.verifyAccessToken(tokens.access_token);
    expect(verified.scopes).to.deep.equal(['service.public']);
    await page.close();
  });
});
