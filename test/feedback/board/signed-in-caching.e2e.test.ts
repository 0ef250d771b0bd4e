/**
 * What a browser may keep of a confirmed visitor's pages, over real HTTP. Task: "Back after
 * sign-out may show a cached private page … (e.g. `no-store` on pages that show the visitor's
 * identity, and/or `Clear-Site-Data: "cache"` on sign-out …; keep public anonymous pages
 * cacheable)". Chromium with its back/forward cache on: back-after-sign-out.browser.e2e.test.ts.
 */
import { expect } from 'chai';
import { BoardVisitor, type BoardWorld, confirmEmail, field, startBoardWorld } from './support.js';

describe("What a browser keeps of a confirmed visitor's pages (e2e)", () => {
  let world: BoardWorld;
  before(async () => {
    world = await startBoardWorld();
  });
  after(() => world.fb.stop());

  it("a confirmed visitor's own pages are private, no-store; others' stay cacheable", async () => {
    // the board and an item page are made for the visitor (their +1s, their address in the
    // capture box); the roadmap and changelog are the same for everyone, and name nobody
    const { itemKey } = await world.fb.submit(world.ws, 'APP', { body: 'Someone asked' });
    const pages = ['', `/items/${itemKey}`].map((page) => `${world.boardPath}${page}`);
    const confirmed = new BoardVisitor(world.fb.url);
    await confirmEmail(world, confirmed, 'kept@customer.example');
    const anonymous = new BoardVisitor(world.fb.url);
    await anonymous.post(`${world.boardPath}/identity`, { csrf: '', email: 'not-yet@x.example' });
    expect(anonymous.cookie, 'an anonymous visitor with a cookie').to.not.equal('');
    const nobody = new BoardVisitor(world.fb.url);
    for (const path of pages) {
      const mine = await confirmed.get(path);
      expect(mine.status, path).to.equal(200);
      expect(mine.headers.get('cache-control'), path).to.equal('private, no-store');
      expect((await anonymous.get(path)).headers.get('cache-control'), path).to.equal(
        'private, no-cache',
      );
      const shared = await nobody.get(path);
      expect(shared.headers.get('cache-control'), path).to.equal('no-cache');
      expect(shared.headers.get('etag'), path).to.match(/^W\//);
    }
    expect((await confirmed.get(world.boardPath)).text).to.include('kept@customer.example');
    const roadmap = await confirmed.get(`${world.boardPath}/roadmap`);
    expect(roadmap.headers.get('cache-control')).to.equal('private, no-cache');
    expect(roadmap.text).to.not.include('kept@customer.example');
  });

  it('signing out clears what the browser kept of the origin: Clear-Site-Data "cache"', async () => {
    const v = new BoardVisitor(world.fb.url);
    await confirmEmail(world, v, 'leaving@customer.example');
    const page = await v.get(`${world.boardPath}/identity`);
    const done = await v.post(`${world.boardPath}/identity/sign-out`, {
      csrf: field(page.text, 'csrf'),
    });
    expect(done.status).to.equal(303);
    expect(done.headers.get('clear-site-data')).to.equal('"cache"');
    // a visitor without a cookie had nothing to sign out of, and nothing is cleared
    const none = await new BoardVisitor(world.fb.url).post(`${world.boardPath}/identity/sign-out`, {
      csrf: '',
    });
    expect(none.status).to.equal(303);
    expect(none.headers.get('clear-site-data')).to.equal(null);
  });
});
