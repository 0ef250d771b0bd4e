/**
 * Where the board's addresses lead, over real HTTP: a +1 without JavaScript returns to the list
 * it was pressed on, near misses of a board's address get the board's 404 page (API paths keep
 * their JSON 404), and an unknown item on a public board says that it is the item that is
 * missing — while a private product still answers exactly like an unknown one.
 */
import { expect } from 'chai';
import { BoardVisitor, type BoardWorld, field, startBoardWorld } from './support.js';

const NO_BOARD = 'There is no public board at this address.';

describe('Board addresses (e2e)', () => {
  let world: BoardWorld;
  let visitor: BoardVisitor;

  before(async () => {
    world = await startBoardWorld();
    visitor = new BoardVisitor(world.fb.url);
  });
  after(() => world.fb.stop());

  describe('When a visitor without JavaScript presses +1 on a searched, sorted and filtered list', () => {
    it('returns to the same list, rebuilt from the board address and its known parameters only', async () => {
      // "Return to the same board query ... no open redirect"
      const { itemKey } = await world.fb.submit(world.ws, 'APP', {
        title: 'Export to CSV',
        body: 'Export the items to a spreadsheet',
      });
      const owner = world.fb.api(world.owner.token);
      await owner.post(`/v1/workspaces/acme-co/products/APP/items/${itemKey}/status`, {
        status: 'in-progress',
      });
      const list = `${world.boardPath}?q=export&sort=new&status=in-progress`;
      const page = await visitor.get(list);
      expect(page.text).to.include(`/items/${itemKey}/plus-one"`);
      const query = field(page.text, 'query');
      expect(query).to.equal('q=export&sort=new&status=in-progress');
      const plusOne = `${world.boardPath}/items/${itemKey}/plus-one`;
      const pressed = await visitor.post(plusOne, { csrf: '', back: 'board', query });
      expect(pressed.status).to.equal(303);
      expect(pressed.headers.get('location')).to.equal(`${world.fb.url}${list}#item-${itemKey}`);
      const csrf = field((await visitor.get(world.boardPath)).text, 'csrf');
      const forged = await visitor.post(plusOne, {
        csrf,
        back: 'board',
        query: 'next=https://evil.example&sort=//evil.example&page=2&q=x y',
      });
      expect(forged.headers.get('location')).to.equal(
        `${world.fb.url}${world.boardPath}?q=x+y&page=2#item-${itemKey}`,
      );
    });
  });

  describe('When an address is a near miss of a board', () => {
    it("answers the board's HTML 404 page, the same as for an unknown board", async () => {
      // "Where the path is shaped like a board address ... answer the board's HTML 404"
      const unknown = await visitor.get('/acme-co/NOPE');
      // a public board in another letter case is sent on to it instead (letter-case.e2e.test.ts)
      for (const path of [
        '/acme-co/sec',
        '/Acme-Co/SEC',
        '/acme-co/APP/items',
        '/acme-co/APP/foo',
        '/acme-co/APP/items/APP-1/extra',
        '/acme-co/sec/roadmap',
      ]) {
        const page = await visitor.get(path, { accept: 'text/html' });
        expect(page.status, path).to.equal(404);
        expect(page.headers.get('content-type'), path).to.match(/^text\/html/);
        expect(page.text, path).to.equal(unknown.text);
      }
      expect(unknown.text).to.include('Page not found').and.include(NO_BOARD);
    });

    it('keeps the JSON 404 for API paths and the routes of the rest of the app', async () => {
      // "keep JSON 404 for API paths (/v1/…, /oauth/…, /mcp, etc.)"
      for (const path of [
        '/v1/nothing/here',
        '/mcp/x',
        '/.well-known/nothing',
        '/healthz/x',
        '/capture/acme-co',
        '/acme-co',
      ]) {
        const res = await visitor.get(path, { accept: 'text/html' });
        expect(res.status, path).to.equal(404);
        expect(res.headers.get('content-type'), path).to.match(/^application\/json/);
      }
      const oauth = await visitor.get('/oauth/jwks', { accept: 'application/json' });
      expect(oauth.status).to.equal(200);
      expect(oauth.text).to.include('"keys"');
      const unknownOauth = await visitor.get('/oauth/nothing', { accept: 'text/html' });
      expect(unknownOauth.text).to.not.include(NO_BOARD);
    });
  });

  describe('When a board address has a broken percent-escape (a link cut or mistyped)', () => {
    it("answers the board's readable 400 page, alike for a public, private and unknown product", async () => {
      // task: "every error must be a readable page or message, never a stack trace, an empty
      // page or a 500" — not the API's JSON envelope shown raw in the browser
      const pages = [];
      for (const path of [
        '/acme-co/APP/items/%ZZ',
        '/acme-co/SEC/items/%E0%A4%A',
        '/acme-co/NOPE/items/%',
      ]) {
        const page = await visitor.get(path, { accept: 'text/html' });
        expect(page.status, path).to.equal(400);
        expect(page.headers.get('content-type'), path).to.match(/^text\/html/);
        expect(page.text, path).to.include('broken %-escape');
        pages.push(page.text);
      }
      expect(pages[1]).to.equal(pages[2]);
      // a client asking for JSON, and the API's own paths, keep the envelope
      const json = await visitor.get('/acme-co/APP/items/%ZZ', { accept: 'application/json' });
      expect(json.headers.get('content-type')).to.match(/^application\/json/);
      const api = await visitor.get('/v1/workspaces/acme-co/products/%ZZ', { accept: 'text/html' });
      expect(api.headers.get('content-type')).to.match(/^application\/json/);
    });
  });

  describe("When a visitor opens a form's address as a page (the address bar after a post without JavaScript)", () => {
    it('sends them to the page holding the form, and a private product to the one 404', async () => {
      // task: "every error must be a readable page or message": was the capture endpoint's JSON
      // (after "sent too fast") and "There is no public board at this address" on a public board
      // (after a wrong code or a refused +1)
      const { itemKey } = await world.fb.submit(world.ws, 'APP', { body: 'Opened by address' });
      const board = `${world.fb.url}${world.boardPath}`;
      const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
      for (const [path, to] of [
        [`/capture/acme-co/APP`, board],
        [`${world.boardPath}/identity/code`, `${board}/identity`],
        [`${world.boardPath}/identity/sign-out`, `${board}/identity`],
        [`${world.boardPath}/items/${itemKey}/plus-one`, `${board}/items/${itemKey}`],
      ]) {
        const opened = await visitor.get(path, html);
        expect(opened.status, path).to.equal(303);
        expect(opened.headers.get('location'), path).to.equal(to);
      }
      const unknown = await visitor.get('/acme-co/NOPE', html);
      for (const path of ['/capture/acme-co/SEC', '/acme-co/SEC/identity/code']) {
        const page = await visitor.get(path, html);
        expect(page.status, path).to.equal(404);
        expect(page.text, path).to.equal(unknown.text);
      }
      // the widget's fetch (Accept */*) still gets the endpoint's JSON
      const widget = await visitor.get('/capture/acme-co/APP', { accept: '*/*' });
      expect(widget.status).to.equal(200);
      expect(JSON.parse(widget.text)).to.have.property('formToken');
    });
  });

  describe('When an item key is unknown', () => {
    it('says the item is missing on a public board, and nothing more on a private or unknown one', async () => {
      // README: "A private product and an unknown one answer the same 404 on every page"
      const missing = await visitor.get(`${world.boardPath}/items/APP-99`);
      expect(missing.status).to.equal(404);
      expect(missing.text).to.include('There is no such item on this board.');
      expect(missing.text).to.not.include(NO_BOARD);
      const secret = await visitor.get('/acme-co/SEC/items/SEC-1');
      const nowhere = await visitor.get('/acme-co/NOPE/items/NOPE-1');
      expect(secret.status).to.equal(404);
      expect(secret.text).to.equal(nowhere.text);
      expect(secret.text).to.include(NO_BOARD).and.not.include('no such item');
    });
  });
});
