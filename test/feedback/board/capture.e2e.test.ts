/**
 * The capture endpoint and the board's capture box, over real HTTP without a browser
 * (issue 12 items 3 and 5). Browser runs (JavaScript on and off) are in board.browser.e2e.
 */
import { expect } from 'chai';
import {
  type BoardVisitor as Visitor,
  BoardVisitor,
  type BoardWorld,
  field,
  fillTime,
  startBoardWorld,
} from './support.js';

describe('The capture endpoint and capture box (e2e)', () => {
  let world: BoardWorld;
  const capture = '/capture/acme-co/APP';
  const listed = async () =>
    (
      await world.fb
        .api(world.owner.token)
        .get('/v1/workspaces/acme-co/products/APP/items?pageSize=200')
    ).body.items as { id: string; title: string; via?: string; author: { tier: string } }[];
  const log = async () => world.fb.runtime.runtime.stores.eventStore.headPosition();

  before(async () => {
    world = await startBoardWorld({ CAPTURE_IP_BURST: '8', CAPTURE_IP_PER_HOUR: '60' });
  });
  after(() => world.fb.stop());

  async function boardForm(visitor: Visitor) {
    const page = await visitor.get(world.boardPath);
    expect(page.status).to.equal(200);
    return { formToken: field(page.text, 'formToken'), csrf: field(page.text, 'csrf') };
  }

  describe('When a visitor without JavaScript posts the board form', () => {
    it('files the item with no via and tier anonymous, sets the visitor cookie, and redirects to the item', async () => {
      // issue 12: "items from it carry no `via` when posted from the board's own page"
      const visitor = new BoardVisitor(world.fb.url);
      const form = await boardForm(visitor);
      expect(visitor.cookie, 'a page view sets no cookie').to.equal('');
      fillTime(world);
      const res = await visitor.post(capture, {
        ...form,
        title: 'Offline mode',
        body: 'Let me read items offline.',
        website: '',
      });
      expect(res.status).to.equal(303);
      const location = res.headers.get('location')!;
      expect(location).to.match(/\/acme-co\/APP\/items\/APP-\d+$/);
      expect(visitor.cookie).to.match(/^board_visitor=/);
      const item = (await listed()).find((i) => location.endsWith(`/${i.id}`))!;
      expect(item.title).to.equal('Offline mode');
      expect(item).to.not.have.property('via');
      expect(item.author.tier).to.equal('anonymous');
      const page = await visitor.get(new URL(location).pathname);
      expect(page.status).to.equal(200);
      expect(page.text).to.include('Let me read items offline.');
    });
  });

  describe('When the widget posts JSON from another origin', () => {
    it('files the item with via widget and answers the item, its URL and a visitor token', async () => {
      // issue 12: "`via: widget` from the widget"; spec Attribution: Embeddable widget -> `widget`
      const visitor = new BoardVisitor(world.fb.url);
      const info = await visitor.get(capture);
      expect(info.status).to.equal(200);
      expect(info.headers.get('access-control-allow-origin')).to.equal('*');
      const { formToken, boardUrl, product } = JSON.parse(info.text);
      expect(product.name).to.equal('Acme App');
      expect(boardUrl).to.equal(`${world.fb.url}/acme-co/APP`);
      fillTime(world);
      const res = await visitor.post(
        capture,
        { formToken, title: 'From the widget', body: 'Filed in the app.' },
        { json: true, headers: { origin: 'http://127.0.0.1:1' } },
      );
      expect(res.status, res.text).to.equal(200);
      const answer = JSON.parse(res.text);
      expect(answer).to.include({ title: 'From the widget', status: 'new' });
      expect(answer.url).to.equal(`${boardUrl}/items/${answer.itemId}`);
      expect(answer.visitor).to.be.a('string');
      expect(res.headers.get('set-cookie'), 'no cookie for another origin').to.equal(null);
      const item = (await listed()).find((i) => i.id === answer.itemId)!;
      expect(item.via).to.equal('widget');
      // the visitor token makes the next submission the same person: the same body folds, and
      // the answer tells the item as it stands (it said `new` of a shipped item: board model)
      const shipped = await world.fb
        .api(world.owner.token)
        .post(`/v1/workspaces/acme-co/products/APP/items/${answer.itemId}/status`, {
          status: 'shipped',
        });
      expect(shipped.status).to.equal(200);
      const again = await visitor.post(
        capture,
        { formToken, body: 'Filed in the app.', visitor: answer.visitor },
        { json: true, headers: { origin: 'http://127.0.0.1:1' } },
      );
      expect(JSON.parse(again.text)).to.include({ itemId: answer.itemId, status: 'shipped' });
    });

    it('answers a CORS preflight for any origin without credentials', async () => {
      const res = await fetch(`${world.fb.url}${capture}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
      });
      expect(res.status).to.equal(204);
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      expect(res.headers.get('access-control-allow-credentials')).to.equal(null);
    });
  });

  describe("When board.js posts the board's form as JSON", () => {
    it('answers its CSRF token but no visitor token: the cookie stays out of reach of scripts', async () => {
      // README: "a random id in a signed, HttpOnly ... cookie"; the visitor token is the same
      // sealed value, so an answer the page's scripts read must not carry it
      const visitor = new BoardVisitor(world.fb.url);
      for (const body of ['First, and the cookie is set now', 'Second, with the cookie']) {
        const form = await boardForm(visitor);
        fillTime(world);
        const res = await visitor.post(capture, { ...form, body }, { json: true });
        expect(res.status, res.text).to.equal(200);
        const answer = JSON.parse(res.text);
        expect(answer.csrf).to.be.a('string');
        expect(answer).to.not.have.property('visitor');
        expect(res.text).to.not.include(visitor.cookie.slice('board_visitor='.length));
      }
    });
  });

  describe('When a bot fills the form', () => {
    it('refuses the honeypot, a submit faster than the minimum fill time and a forged token, appending nothing', async () => {
      // issue 12 item 5: "a honeypot field and a minimum fill time (signed form token)";
      // "nothing refused reaches the event log"
      const visitor = new BoardVisitor(world.fb.url);
      const form = await boardForm(visitor);
      const head = await log();
      const tooFast = await visitor.post(capture, { ...form, body: 'I am quick' }, { json: true });
      expect(tooFast.status).to.equal(400);
      expect(JSON.parse(tooFast.text)).to.deep.equal({
        error: 'sent too fast; wait a few seconds and send it again',
        code: 'invalid-argument',
      });
      fillTime(world);
      const honeypot = await visitor.post(capture, {
        ...form,
        body: 'Buy now',
        website: 'http://spam.example',
      });
      expect(honeypot.status).to.equal(400);
      expect(honeypot.headers.get('content-type')).to.match(/^text\/html/);
      const forged = await visitor.post(
        capture,
        { ...form, formToken: `${form.formToken.slice(0, -2)}xx`, body: 'forged' },
        { json: true },
      );
      expect(forged.status).to.equal(400);
      const otherBoard = await visitor.post(
        '/capture/acme-co/SEC',
        { ...form, body: 'private' },
        { json: true },
      );
      expect(otherBoard.status).to.equal(404);
      expect(await log()).to.equal(head);
    });

    it("refuses a cookie-carrying post without the visitor's CSRF token (403)", async () => {
      // issue 12 item 6: "CSRF protection on cookie-authenticated forms"
      const visitor = new BoardVisitor(world.fb.url);
      const form = await boardForm(visitor);
      fillTime(world);
      expect(
        (await visitor.post(capture, { ...form, body: 'first, sets the cookie' })).status,
      ).to.equal(303);
      const res = await visitor.post(capture, {
        formToken: form.formToken,
        csrf: 'not-it',
        body: 'second',
      });
      expect(res.status).to.equal(403);
    });
  });

  describe('When one IP sends a burst', () => {
    it('answers 429 with Retry-After once the per-IP bucket is empty, as JSON for JSON and as a page for forms', async () => {
      // issue 12 item 5: per-IP token bucket in the store; "Refusals: HTTP 429 with Retry-After"
      const visitor = new BoardVisitor(world.fb.url);
      const { formToken } = JSON.parse((await visitor.get(capture)).text);
      fillTime(world);
      const answers = [];
      for (let i = 0; i < 12; i++) {
        answers.push(
          await visitor.post(capture, { formToken, body: `burst number ${i}` }, { json: true }),
        );
      }
      const refused = answers.filter((a) => a.status === 429);
      expect(refused.length).to.be.greaterThan(0);
      const first = refused[0]!;
      expect(JSON.parse(first.text).code).to.equal('resource-exhausted');
      expect(Number(first.headers.get('retry-after'))).to.be.within(1, 60);
      const head = await log();
      const page = await visitor.post(capture, { formToken, body: 'as a form' });
      expect(page.status).to.equal(429);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      expect(page.text).to.include('Slow down');
      expect(Number(page.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(await log()).to.equal(head);
    });
  });
});
