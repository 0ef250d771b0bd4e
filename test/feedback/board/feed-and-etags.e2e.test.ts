/**
 * The changelog feed's required metadata and the board's conditional GETs, over real HTTP: the
 * Atom feed has an author and a real `updated` even before anything shipped (RFC 4287), and
 * `If-None-Match` is evaluated as RFC 9110 says, not compared as one exact string; a page's tag
 * is the page's own, not the service's position in the event log.
 */
import { parseFeed } from '@rowanmanning/feed-parser';
import { expect } from 'chai';
import { FORM_MAX_AGE_MS } from '../../../src/feedback/board/tokens.js';
import { BoardVisitor, type BoardWorld, startBoardWorld } from './support.js';

describe('The changelog feed and conditional requests (e2e)', () => {
  let world: BoardWorld;
  let visitor: BoardVisitor;

  before(async () => {
    world = await startBoardWorld();
    visitor = new BoardVisitor(world.fb.url);
  });
  after(() => world.fb.stop());

  describe('When a product has published nothing yet', () => {
    it('gives the feed an author (the workspace) and the product creation time as updated', async () => {
      // RFC 4287 §4.1.1: "atom:feed elements MUST contain one or more atom:author elements,
      // unless all of the atom:feed element's child atom:entry elements contain at least one
      // atom:author element"; an empty feed said <updated>1970-01-01T00:00:00.000Z</updated>
      const owner = world.fb.api(world.owner.token);
      const { items } = (await owner.get('/v1/workspaces/acme-co/products')).body;
      const product = items.find((p: { id: string }) => p.id === 'APP');
      const atom = await visitor.get(`${world.boardPath}/changelog.atom`);
      const feed = parseFeed(atom.text);
      expect(feed.authors.map((a) => a.name)).to.deep.equal(['Acme']);
      expect(feed.items).to.have.length(0);
      expect(feed.updated?.toISOString()).to.equal(new Date(product.createdAt).toISOString());
      expect(atom.text).to.not.include('1970-01-01');
    });
  });

  describe('When a client revalidates a page with If-None-Match', () => {
    it('answers 304 for the tag weakly compared, within a list, and for *', async () => {
      // RFC 9110 §13.1.2: "A recipient MUST use the weak comparison function when comparing
      // entity tags for If-None-Match"; "*" matches any current representation
      const first = await visitor.get(world.boardPath);
      const etag = first.headers.get('etag')!;
      const opaque = etag.replace(/^W\//, '');
      expect(etag).to.match(/^W\/"/);
      for (const header of [etag, opaque, `"x", ${etag}`, `W/"x",${opaque}`, '*']) {
        const res = await visitor.get(world.boardPath, { 'if-none-match': header });
        expect(res.status, header).to.equal(304);
      }
      for (const header of ['"x"', 'W/"x", "y"']) {
        const res = await visitor.get(world.boardPath, { 'if-none-match': header });
        expect(res.status, header).to.equal(200);
      }
    });

    it('answers a trending board that time has reordered afresh, not 304, with no write between', async () => {
      // trending ranks activity over age ("an item with a few fresh +1s outranks an old one with
      // many"), so its order changes as time passes; the page was cached and tagged by the read
      // models' version only, so a quiet board kept its order, and answered 304, until any write
      const { fb, ws, owner } = world;
      // at the start of a period of the tag's form-token part, so an hour on it is the same
      const tagPeriod = FORM_MAX_AGE_MS / 4;
      fb.clock.advance(tagPeriod - (fb.clock.now() % tagPeriod) + 60_000);
      const old = await fb.submit(ws, 'APP', {
        body: 'Older and discussed',
        createdAt: fb.clock.now() - 4 * 3_600_000,
      });
      const replies = `/v1/workspaces/acme-co/products/APP/items/${old.itemKey}/replies`;
      for (let i = 1; i <= 6; i++) {
        const res = await fb.api(owner.token).post(replies, { body: `reply ${i}` });
        expect(res.status).to.equal(200);
      }
      const fresh = await fb.submit(ws, 'APP', { body: 'Brand new and quiet' });
      const anonymous = new BoardVisitor(fb.url);
      const trending = `${world.boardPath}?sort=trending`;
      const order = (page: { text: string }) =>
        [...new Set([...page.text.matchAll(/items\/(APP-\d+)/g)].map((m) => m[1]))].filter(
          (key) => key === old.itemKey || key === fresh.itemKey,
        );
      const now = await anonymous.get(trending);
      expect(order(now)).to.deep.equal([fresh.itemKey, old.itemKey]);
      const etag = now.headers.get('etag')!;
      expect((await anonymous.get(trending, { 'if-none-match': etag })).status).to.equal(304);
      // an hour on, the older item's six replies outweigh the fresh one's newness
      fb.clock.advance(3_600_000);
      const later = await anonymous.get(trending, { 'if-none-match': etag });
      expect(later.status).to.equal(200);
      expect(order(later)).to.deep.equal([old.itemKey, fresh.itemKey]);
    });

    it('answers 304 for * on a page answered without a tag (a search, a visitor with a cookie), with its Vary and Cache-Control; a missing item still 404', async () => {
      // RFC 9110 §13.1.2: "*" is false when the target "has a current representation", tag or
      // none; §15.4.5: the 304 carries the Cache-Control and Vary the 200 would
      const search = `${world.boardPath}?q=dark`;
      const signedIn = new BoardVisitor(world.fb.url);
      await signedIn.get(`${world.boardPath}/identity`);
      expect(signedIn.cookie, 'the identity page set a visitor cookie').to.not.equal('');
      for (const [who, path] of [
        [visitor, search],
        [signedIn, world.boardPath],
      ] as const) {
        const full = await who.get(path);
        expect(full.status, path).to.equal(200);
        expect(full.headers.get('etag'), path).to.equal(null);
        const res = await who.get(path, { 'if-none-match': '*' });
        expect(res.status, path).to.equal(304);
        expect(res.text, path).to.equal('');
        for (const name of ['vary', 'cache-control', 'etag']) {
          expect(res.headers.get(name), `${path} ${name}`).to.equal(full.headers.get(name));
        }
        const listed = await who.get(path, { 'if-none-match': '"x"' });
        expect(listed.status, path).to.equal(200);
      }
      const missing = await visitor.get(`${world.boardPath}/items/APP-999`, {
        'if-none-match': '*',
      });
      expect(missing.status).to.equal(404);
    });

    it("does the same for the board's static files", async () => {
      const css = await visitor.get('/_board/board.css');
      const etag = css.headers.get('etag')!;
      const weak = await visitor.get('/_board/board.css', { 'if-none-match': `"x", W/${etag}` });
      expect(weak.status).to.equal(304);
    });
  });

  describe('When a board is revalidated after writes elsewhere, then after a write on it', () => {
    it('keeps its pages’ tags (304) through other workspaces’ and products’ writes, and changes them with its own', async () => {
      // the tag was the read models' version — the service's position in the event log, moved by
      // every tenant's writes — so an anonymous visitor polling a board learnt when any other
      // workspace wrote, and every write anywhere voided every board's cached page. README: pages
      // "carry a weak `ETag` (a conditional GET answers 304)"; RFC 9110 §8.8.1: a validator
      // changes when the representation does
      const { fb, ws, owner } = world;
      const own = await fb.submit(ws, 'APP', { body: 'A board of its own' });
      const anonymous = new BoardVisitor(fb.url);
      const pages = [
        world.boardPath,
        `${world.boardPath}/items/${own.itemKey}`,
        `${world.boardPath}/roadmap`,
        `${world.boardPath}/changelog.atom`,
      ];
      const tags = new Map<string, string>();
      for (const path of pages) tags.set(path, (await anonymous.get(path)).headers.get('etag')!);
      const globex = await fb.createMaker('owner@globex.io', 'laptop');
      const other = await fb.createWorkspace(globex, { slug: 'globex', name: 'Globex' });
      await fb.createProduct(other, { key: 'WEB', name: 'Globex Web', visibility: 'public' });
      await fb.submit(other, 'WEB', { body: 'Another tenant writes' });
      await fb.submit(ws, 'SEC', { body: 'The private product of the same workspace' });
      for (const path of pages) {
        const again = await anonymous.get(path, { 'if-none-match': tags.get(path)! });
        expect(again.status, path).to.equal(304);
      }
      const status = `/v1/workspaces/acme-co/products/APP/items/${own.itemKey}/status`;
      expect((await fb.api(owner.token).post(status, { status: 'planned' })).status).to.equal(200);
      for (const path of pages.slice(0, 3)) {
        const changed = await anonymous.get(path, { 'if-none-match': tags.get(path)! });
        expect(changed.status, path).to.equal(200);
        expect(changed.headers.get('etag'), path).to.not.equal(tags.get(path));
      }
    });
  });
});
