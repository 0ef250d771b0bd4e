/**
 * The board's pages for visitors without a cookie are cached, and the product at an address is
 * remembered, per version of that product (src/feedback/board/versions.ts), over real HTTP.
 * Another tenant's writes render none of a board's pages again — a fresh render answers slower,
 * which told a visitor timing the board when other tenants wrote — and every change a page
 * shows is on it at the next view after the write's answer (read-your-writes, DESIGN.md: "the
 * next GET by that client sees the write"). Renders and look-ups are seen as the read-model
 * reads they make (test/support/intercepted-store.ts), not timed.
 */
import { expect } from 'chai';
import { interceptIn } from '../../support/intercepted-store.js';
import type { Api } from '../support/harness.js';
import { BoardVisitor, type BoardWorld, field, startBoardWorld } from './support.js';

const items = '/v1/workspaces/acme-co/products/APP/items';
/**
 * What a render reads (lists of items, replies, changelog entries) and what a look-up of the
 * product reads (the address); not the item an item page finds on every view, cached or not.
 */
const READS: Record<string, string> = {
  items: 'find',
  replies: 'find',
  changelog: 'find',
  workspaces: 'findOne',
  products: 'findOne',
};

/** the board's row of one item */
const rowOf = (html: string, key: string) =>
  html.split('<li class="item">').find((row) => row.includes(`/items/${key}"`)) ?? '';
const votesOf = (html: string) => Number(/class="count">(\d+)</.exec(html)?.[1]);

describe('The board caches each product’s pages by that product’s version (e2e)', () => {
  let world: BoardWorld;
  let owner: Api;
  let anonymous: BoardVisitor;
  /** the read-model reads that name the board's workspace, since the last reset */
  let reads: string[] = [];

  before(async () => {
    world = await startBoardWorld();
    owner = world.fb.api(world.owner.token);
    anonymous = new BoardVisitor(world.fb.url);
    const { workspaceId, slug } = world.ws;
    const store = world.fb.deps().readStore;
    interceptIn(store, Object.keys(READS), (collection, method, proceed, args) => {
      const asked = JSON.stringify(args[0] ?? null);
      if (READS[collection] === method && (asked.includes(workspaceId) || asked.includes(slug)))
        reads.push(`${collection}.${method} ${asked}`);
      return proceed();
    });
  });
  after(() => world.fb.stop());

  const file = async (body: string, title?: string) =>
    (await world.fb.submit(world.ws, 'APP', { body, ...(title ? { title } : {}) })).itemKey;

  /** a page as an anonymous visitor sees it, once it is in the cache */
  async function cached(path: string): Promise<string> {
    const first = await anonymous.get(path);
    const again = await anonymous.get(path);
    expect(again.status, path).to.equal(first.status);
    return again.text;
  }

  describe('When other workspaces, and the same workspace’s other product, are written to', () => {
    it('renders none of the board’s pages again and looks its product up no more', async () => {
      const { fb, ws } = world;
      const key = await file('Cached and quiet', 'Quiet item');
      await owner.post(`${items}/${key}/replies`, { body: 'A reply kept in the cache' });
      const pages = [
        world.boardPath,
        `${world.boardPath}?sort=new&status=new`,
        `${world.boardPath}/items/${key}`,
        `${world.boardPath}/roadmap`,
        `${world.boardPath}/changelog`,
        `${world.boardPath}/changelog.atom`,
      ];
      for (const path of pages) await cached(path);
      const globex = await fb.createMaker('owner@globex.io', 'laptop');
      const other = await fb.createWorkspace(globex, { slug: 'globex', name: 'Globex' });
      await fb.createProduct(other, { key: 'WEB', name: 'Globex Web', visibility: 'public' });
      const theirs = await fb.submit(other, 'WEB', { body: 'Another tenant writes' });
      const api = fb.api(globex.token);
      const web = `/v1/workspaces/globex/products/WEB/items/${theirs.itemKey}`;
      expect((await api.post(`${web}/status`, { status: 'shipped' })).status).to.equal(200);
      expect((await api.post(`${web}/replies`, { body: 'theirs' })).status).to.equal(200);
      expect(
        (await api.patch('/v1/workspaces/globex/products/WEB', { name: 'W' })).status,
      ).to.equal(200);
      await fb.submit(ws, 'SEC', { body: 'The private product of the same workspace' });
      reads = [];
      for (const path of pages) expect((await anonymous.get(path)).status, path).to.equal(200);
      // each page read the read models again when the version was the whole service's
      // position in the log: "expected [ 'workspaces.findOne {"slug":"acme-co"}', … ] to deeply
      // equal []"
      expect(reads).to.deep.equal([]);
      // its own change is read again (so the reads above would have been seen)
      expect((await owner.post(`${items}/${key}/status`, { status: 'planned' })).status).to.equal(
        200,
      );
      const board = await anonymous.get(world.boardPath);
      expect(rowOf(board.text, key)).to.include('Planned');
      expect(reads.some((read) => read.startsWith('items.find '))).to.equal(true);
    });
  });

  describe('When a change the board shows is written', () => {
    it('shows a new item, an edited title and a status on the board, item page and roadmap', async () => {
      const key = await file('Before the edit', 'Old title');
      const item = `${world.boardPath}/items/${key}`;
      const roadmap = `${world.boardPath}/roadmap`;
      await cached(world.boardPath);
      const added = await file('Filed after the board was cached', 'Newcomer');
      expect(rowOf((await anonymous.get(world.boardPath)).text, added)).to.include('Newcomer');
      for (const path of [world.boardPath, item]) await cached(path);
      expect((await owner.patch(`${items}/${key}`, { title: 'New title' })).status).to.equal(200);
      expect(rowOf((await anonymous.get(world.boardPath)).text, key)).to.include('New title');
      expect((await anonymous.get(item)).text).to.include('New title');
      await cached(roadmap);
      const status = await owner.post(`${items}/${key}/status`, { status: 'in-progress' });
      expect(status.status).to.equal(200);
      const columns = (await anonymous.get(roadmap)).text;
      expect(columns.indexOf('New title')).to.be.greaterThan(
        columns.indexOf('id="col-in-progress"'),
      );
    });

    it('shows a visitor’s +1 and its withdrawal, and a reply, to visitors without a cookie', async () => {
      const key = await file('Vote on me', 'Votable');
      const item = `${world.boardPath}/items/${key}`;
      await cached(world.boardPath);
      await cached(item);
      const voter = new BoardVisitor(world.fb.url);
      const press = async () => {
        const page = await voter.get(item);
        const sent = await voter.post(`${item}/plus-one`, { csrf: field(page.text, 'csrf') });
        expect(sent.status).to.equal(303);
      };
      await press();
      expect(votesOf(rowOf((await anonymous.get(world.boardPath)).text, key))).to.equal(1);
      expect(votesOf((await anonymous.get(item)).text)).to.equal(1);
      await press();
      expect(votesOf(rowOf((await anonymous.get(world.boardPath)).text, key))).to.equal(0);
      expect(votesOf((await anonymous.get(item)).text)).to.equal(0);
      expect(
        (await owner.post(`${items}/${key}/replies`, { body: 'Seen, thanks' })).status,
      ).to.equal(200);
      expect((await anonymous.get(item)).text).to.include('Seen, thanks');
      expect(rowOf((await anonymous.get(world.boardPath)).text, key)).to.include('1 reply');
    });

    it('takes a merged item off the board and puts it back when unmerged', async () => {
      const survivor = await file('Survives the merge', 'Survivor');
      const merged = await file('Merged away', 'Duplicate');
      expect(await cached(world.boardPath)).to.include(`/items/${merged}"`);
      const merge = await owner.post(`${items}/${survivor}/merge`, { mergedKeys: [merged] });
      expect(merge.status).to.equal(200);
      expect((await anonymous.get(world.boardPath)).text).to.not.include(`/items/${merged}"`);
      await cached(world.boardPath);
      const unmerge = await owner.post(`${items}/${survivor}/unmerge`, { mergedKeys: [merged] });
      expect(unmerge.status).to.equal(200);
      expect((await anonymous.get(world.boardPath)).text).to.include(`/items/${merged}"`);
    });

    it('shows a published changelog entry and its revision on the changelog page and feed', async () => {
      const key = await file('Ship me', 'Shippable');
      await owner.post(`${items}/${key}/status`, { status: 'shipped' });
      const pages = [`${world.boardPath}/changelog`, `${world.boardPath}/changelog.atom`];
      for (const path of pages) await cached(path);
      const entry = `${items}/${key}/changelog`;
      const publish = (title: string) =>
        owner.post(entry, { title, body: 'Out now', publish: true });
      expect((await publish('Shipped at last')).status).to.equal(200);
      for (const path of pages) {
        expect((await anonymous.get(path)).text, path).to.include('Shipped at last');
      }
      expect((await publish('Shipped, revised')).status).to.equal(200);
      for (const path of pages) {
        expect((await anonymous.get(path)).text, path).to.include('Shipped, revised');
      }
    });

    it('shows a product’s new name, and answers 404 once it is private and the page again once public', async () => {
      const product = '/v1/workspaces/acme-co/products/APP';
      const atom = `${world.boardPath}/changelog.atom`;
      await cached(world.boardPath);
      await cached(atom);
      expect((await owner.patch(product, { name: 'Acme Renamed' })).status).to.equal(200);
      expect((await anonymous.get(world.boardPath)).text).to.include('Acme Renamed');
      expect((await anonymous.get(atom)).text).to.include('\u2068Acme Renamed\u2069 changelog');
      expect((await owner.patch(product, { visibility: 'private' })).status).to.equal(200);
      expect((await anonymous.get(world.boardPath)).status).to.equal(404);
      expect((await anonymous.get(atom)).status).to.equal(404);
      expect((await owner.patch(product, { visibility: 'public' })).status).to.equal(200);
      expect((await anonymous.get(world.boardPath)).status).to.equal(200);
    });

    it('shows a board at an address that had none once a workspace or product takes it', async () => {
      const { fb, owner: maker } = world;
      const newSlug = '/initech/CRM';
      const newKey = `/${world.ws.slug}/NEW`;
      await cached(newSlug);
      await cached(newKey);
      expect((await anonymous.get(newSlug)).status).to.equal(404);
      expect((await anonymous.get(newKey)).status).to.equal(404);
      const initech = await fb.createWorkspace(maker, { slug: 'initech', name: 'Initech' });
      await fb.createProduct(initech, { key: 'CRM', name: 'Initech CRM', visibility: 'public' });
      expect((await anonymous.get(newSlug)).text).to.include('Initech CRM');
      await fb.createProduct(world.ws, { key: 'NEW', name: 'Brand New', visibility: 'public' });
      expect((await anonymous.get(newKey)).text).to.include('Brand New');
    });
  });
});
