/**
 * A board address in another letter case, over real HTTP: a visitor typing `/acme-co/app` or
 * `…/items/app-1` from a mail or a slide is sent (301) to the canonical address — slug lower
 * case, product and item keys upper case, query kept — where that address answers the page;
 * a private or unknown product keeps the one 404, and a POST is never sent on.
 */
import { expect } from 'chai';
import { BoardVisitor, type BoardWorld, startBoardWorld } from './support.js';

describe('Board addresses in another letter case (e2e)', () => {
  let world: BoardWorld;
  let visitor: BoardVisitor;
  let appItem: string;
  let secItem: string;

  before(async () => {
    world = await startBoardWorld();
    visitor = new BoardVisitor(world.fb.url);
    appItem = (await world.fb.submit(world.ws, 'APP', { body: 'Typed from a slide' })).itemKey;
    secItem = (await world.fb.submit(world.ws, 'SEC', { body: 'A secret one' })).itemKey;
  });
  after(() => world.fb.stop());

  it("sends a public board's page to its canonical address (301), the query string kept", async () => {
    // task: "Product keys and item keys are upper case by the spec, workspace slugs lower case.
    // Answer a 301 to the canonical address for a public product, keeping the query string"
    const base = world.fb.url;
    const lower = appItem.toLowerCase();
    for (const [path, to] of [
      ['/acme-co/app', '/acme-co/APP'],
      ['/Acme-Co/APP?sort=new&q=csv', '/acme-co/APP?sort=new&q=csv'],
      ['/acme-co/app/', '/acme-co/APP'],
      [`/acme-co/app/items/${lower}`, `/acme-co/APP/items/${appItem}`],
      [`/ACME-CO/App/items/${appItem}?x=1`, `/acme-co/APP/items/${appItem}?x=1`],
      [`/acme-co/APP/items/${lower}`, `/acme-co/APP/items/${appItem}`],
      ['/acme-co/app/roadmap', '/acme-co/APP/roadmap'],
      ['/acme-co/app/changelog?after=1.x', '/acme-co/APP/changelog?after=1.x'],
      ['/acme-co/app/changelog.atom', '/acme-co/APP/changelog.atom'],
      ['/acme-co/app/identity', '/acme-co/APP/identity'],
    ]) {
      const sent = await visitor.get(path!, { accept: 'text/html' });
      expect(sent.status, path).to.equal(301);
      expect(sent.headers.get('location'), path).to.equal(`${base}${to}`);
      expect((await visitor.get(to!)).status, to).to.equal(200);
    }
    const head = await fetch(`${base}/acme-co/app`, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).to.equal(301);
    expect(head.headers.get('location')).to.equal(`${base}/acme-co/APP`);
  });

  it('keeps the one 404 for a private or unknown product, and for what the board does not have', async () => {
    // task: "a private or unknown product still answers the same 404 as today (no oracle: only
    // redirect when the canonical address would answer 200)"
    const unknown = await visitor.get('/acme-co/NOPE', { accept: 'text/html' });
    expect(unknown.status).to.equal(404);
    for (const path of [
      '/acme-co/sec',
      '/Acme-Co/SEC',
      `/acme-co/sec/items/${secItem.toLowerCase()}`,
      `/acme-co/SEC/items/${secItem.toLowerCase()}`,
      '/acme-co/sec/roadmap',
      '/acme-co/nope',
      '/acme-co/nope/items/nope-1',
      '/acme-co/app/items/app-999',
      '/acme-co/app/items/sec-1',
      '/acme-co/app/suggest',
      '/acme-co/app/foo',
    ]) {
      const page = await visitor.get(path, { accept: 'text/html' });
      expect(page.status, path).to.equal(404);
      expect(page.headers.get('location'), path).to.equal(null);
    }
    for (const path of ['/acme-co/sec', '/Acme-Co/SEC', '/acme-co/nope']) {
      expect((await visitor.get(path, { accept: 'text/html' })).text, path).to.equal(unknown.text);
    }
    const missing = await visitor.get(`/acme-co/APP/items/app-999`, { accept: 'text/html' });
    expect(missing.status).to.equal(404);
    expect(missing.text).to.include('There is no such item on this board.');
  });

  it('sends a page name in another case to the canonical address (301), once, query kept', async () => {
    // task: "Extend the same rule to the fixed page names (roadmap, changelog, feed, sign-in…),
    // one redirect to the fully canonical address, query string kept, GET/HEAD only"
    // (Express matches routes in any case: `/acme-co/APP/Roadmap` answered the page at a second
    // address, `/acme-co/app/ROADMAP` the 404)
    const base = world.fb.url;
    for (const [path, to] of [
      ['/acme-co/APP/Roadmap', '/acme-co/APP/roadmap'],
      ['/acme-co/app/ROADMAP?x=1', '/acme-co/APP/roadmap?x=1'],
      ['/Acme-Co/App/Changelog?after=1.x', '/acme-co/APP/changelog?after=1.x'],
      ['/acme-co/APP/CHANGELOG.ATOM', '/acme-co/APP/changelog.atom'],
      ['/acme-co/APP/Identity?another', '/acme-co/APP/identity?another'],
      ['/acme-co/APP/roadmap/', '/acme-co/APP/roadmap'],
      [`/acme-co/app/ITEMS/${appItem.toLowerCase()}`, `/acme-co/APP/items/${appItem}`],
      [`/acme-co/APP/Items/${appItem}`, `/acme-co/APP/items/${appItem}`],
    ]) {
      const sent = await visitor.get(path!, { accept: 'text/html' });
      expect(sent.status, path).to.equal(301);
      expect(sent.headers.get('location'), path).to.equal(`${base}${to}`);
      expect((await visitor.get(to!)).status, to).to.equal(200);
    }
    const head = await fetch(`${base}/acme-co/APP/Roadmap`, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).to.equal(301);
    expect(head.headers.get('location')).to.equal(`${base}/acme-co/APP/roadmap`);
  });

  it("answers a private product's page names in any case with the one 404, no redirect", async () => {
    // task: "never a redirect that reveals a private product"
    const unknown = await visitor.get('/acme-co/NOPE/roadmap', { accept: 'text/html' });
    expect(unknown.status).to.equal(404);
    for (const path of [
      '/acme-co/SEC/Roadmap',
      '/acme-co/sec/ROADMAP',
      '/acme-co/SEC/Changelog',
      '/acme-co/SEC/CHANGELOG.ATOM',
      '/acme-co/SEC/Identity',
      '/acme-co/SEC/roadmap/',
      `/acme-co/SEC/ITEMS/${secItem}`,
      '/acme-co/NOPE/Roadmap',
      '/acme-co/APP/Roadmap/x',
    ]) {
      const page = await visitor.get(path, { accept: 'text/html' });
      expect(page.status, path).to.equal(404);
      expect(page.headers.get('location'), path).to.equal(null);
      if (!path.startsWith('/acme-co/APP')) expect(page.text, path).to.equal(unknown.text);
    }
  });

  it('never sends a POST on', async () => {
    // task: "Never redirect a POST": a form's body would be lost or sent twice
    for (const path of [
      '/acme-co/app',
      `/acme-co/app/items/${appItem.toLowerCase()}/plus-one`,
      `/acme-co/APP/items/${appItem.toLowerCase()}`,
      '/acme-co/app/identity',
      '/acme-co/APP/Identity',
    ]) {
      const posted = await visitor.post(path, { csrf: '' });
      expect(posted.status, path).to.be.at.least(400);
      expect(posted.headers.get('location'), path).to.equal(null);
    }
  });
});
