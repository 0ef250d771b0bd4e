/// <reference lib="dom" />
/**
 * A capture refused without JavaScript keeps the visitor where they were: the board comes back
 * with the sort, filter, search and page they had (not the default list), the address bar names
 * that list, and opening that address (Enter, a bookmark, a tab opened again) leads back to it —
 * rebuilt from the board's own parameters only, never an open redirect.
 */
import { expect } from 'chai';
import { describeInBrowser } from '../../support/browser.js';
import { type BoardWorld, fillTime, SLUG, startBoardWorld } from './support.js';

const items = '/v1/workspaces/acme-co/products/APP/items';

describeInBrowser('A capture refused without JavaScript, in a browser (e2e)', (browser) => {
  let world: BoardWorld;
  let board: string;

  before(async () => {
    world = await startBoardWorld();
    board = `${world.fb.url}${world.boardPath}`;
    const owner = world.fb.api(world.owner.token);
    const file = async (title: string) =>
      (await world.fb.submit(world.ws, 'APP', { title, body: `${title}, please` })).itemKey;
    const planned = await file('Calendar view');
    await file('Bulk edit');
    await owner.post(`${items}/${planned}/status`, { status: 'planned' });
  });
  after(() => world.fb.stop());

  it('shows the list the visitor was on again, and its address leads back to that list', async () => {
    const context = await browser().newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const list = `${board}?sort=new&status=planned`;
    await page.goto(list);
    await page.fill('#capture-title', 'Too quick');
    await page.fill('#capture-body', 'Sent before the fill time.');
    // no fillTime: "sent too fast", a 400 answered with the board
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('form.capture button[type="submit"]'),
    ]);
    await page.waitForLoadState();
    expect(answer.status()).to.equal(400);
    expect(await page.textContent('form.capture [role="alert"]')).to.match(/^Sent too fast/);
    expect(await page.inputValue('#capture-title')).to.equal('Too quick');
    // the list it was on: its filter and sort still chosen, and only the planned item listed
    expect(await page.inputValue('#sort')).to.equal('new');
    expect(await page.inputValue('#status')).to.equal('planned');
    const titles = await page.locator('ol.items a.title').allTextContents();
    expect(titles).to.deep.equal(['Calendar view']);
    // the address bar names that list on the capture endpoint (a reload sends the form again)
    expect(page.url()).to.equal(`${world.fb.url}/capture/${SLUG}/APP?sort=new&status=planned`);
    // opening that address (not a post) leads to the list itself
    await page.goto(page.url());
    expect(page.url()).to.equal(list);
    expect(await page.locator('ol.items a.title').allTextContents()).to.deep.equal([
      'Calendar view',
    ]);
    await context.close();
  });

  it('sends the form, shown again, once the fill time has passed, and files it', async () => {
    const context = await browser().newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${board}?sort=new`);
    await page.fill('#capture-body', 'Sent twice.');
    await Promise.all([
      page.waitForURL(/\/capture\/acme-co\/APP\?sort=new$/),
      page.click('form.capture button[type="submit"]'),
    ]);
    fillTime(world);
    await Promise.all([
      page.waitForURL(/\/items\/APP-\d+$/),
      page.click('form.capture button[type="submit"]'),
    ]);
    expect(await page.textContent('.item-page')).to.include('Sent twice.');
    await context.close();
  });

  it('opens the capture address as the board, keeping only the board’s own parameters', async () => {
    // README: the board's query string is its sort, filter, search and page; anything else in
    // the address (another site to go to) is dropped, never followed
    const res = await fetch(
      `${world.fb.url}/capture/${SLUG}/APP?sort=trending&status=nope&page=2&next=https://evil.example/`,
      { headers: { accept: 'text/html' }, redirect: 'manual' },
    );
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal(`${board}?sort=trending&page=2`);
  });
});
