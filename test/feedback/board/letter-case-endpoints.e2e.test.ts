/**
 * The board's addresses that are no page — the suggestions' JSON (`…/suggest`), the forms'
 * addresses (`…/identity/code`, `…/identity/sign-out`, `…/items/{itemKey}/plus-one`) — answer in
 * their canonical spelling only. README (The public board): only a page typed in another case is
 * sent on (301, GET and HEAD); "otherwise, a private product's included, it answers the same
 * 404". Express matches routes in any letter case by default, so `/acme-co/APP/Suggest` answered
 * the suggestions and `/acme-co/APP/Identity/Code` took the code at a second address. No
 * redirect for them either: a script's request or a form's post is not sent on.
 */
import { expect } from 'chai';
import { BoardVisitor, type BoardWorld, startBoardWorld } from './support.js';

describe('Board addresses that are no page, in another letter case (e2e)', function () {
  this.timeout(60_000);
  let world: BoardWorld;
  let visitor: BoardVisitor;
  let appItem: string;
  let secItem: string;

  before(async () => {
    world = await startBoardWorld();
    visitor = new BoardVisitor(world.fb.url);
    appItem = (await world.fb.submit(world.ws, 'APP', { body: 'Dark mode please' })).itemKey;
    secItem = (await world.fb.submit(world.ws, 'SEC', { body: 'A secret one' })).itemKey;
  });
  after(() => world.fb.stop());

  /** `/acme-co/{KEY}` + the tail, for the public, the private and an unknown product */
  const addresses = (tail: (key: string, item: string) => string) => ({
    app: `/acme-co/APP${tail('APP', appItem)}`,
    sec: `/acme-co/SEC${tail('SEC', secItem)}`,
    nope: `/acme-co/NOPE${tail('NOPE', 'NOPE-1')}`,
  });

  it('answers the suggestions in another case with the one 404, as for a private or unknown product', async () => {
    // the canonical spelling still answers the suggestions
    const right = await visitor.get('/acme-co/APP/suggest?q=dark%20mode', {
      accept: 'application/json',
    });
    expect(right.status).to.equal(200);
    for (const tail of ['/Suggest', '/SUGGEST']) {
      for (const accept of ['application/json', 'text/html']) {
        const { app, sec, nope } = addresses(() => `${tail}?q=dark%20mode`);
        const unknown = await visitor.get(nope, { accept });
        expect(unknown.status, nope).to.equal(404);
        for (const path of [app, sec]) {
          const answer = await visitor.get(path, { accept });
          expect(answer.status, `${path} ${accept}`).to.equal(404);
          expect(answer.headers.get('location'), path).to.equal(null);
          expect(answer.text, `${path} ${accept}`).to.equal(unknown.text);
        }
      }
    }
  });

  it("answers the forms' addresses in another case with the one 404, GET and POST alike, never sent on", async () => {
    for (const tail of [
      () => '/Identity/Code',
      () => '/IDENTITY/code',
      () => '/identity/Sign-Out',
      () => '/Identity/Upstream',
      (_: string, item: string) => `/items/${item}/Plus-One`,
      (_: string, item: string) => `/Items/${item}/plus-one`,
    ]) {
      const { app, sec, nope } = addresses(tail);
      for (const send of [
        (path: string) => visitor.get(path, { accept: 'text/html' }),
        (path: string) => visitor.post(path, { csrf: '', code: '123456' }),
        (path: string) => visitor.post(path, { csrf: '', code: '123456' }, { json: true }),
      ]) {
        const unknown = await send(nope);
        expect(unknown.status, nope).to.equal(404);
        for (const path of [app, sec]) {
          const answer = await send(path);
          expect(answer.status, path).to.equal(404);
          expect(answer.headers.get('location'), path).to.equal(null);
          expect(answer.text, path).to.equal(unknown.text);
        }
      }
    }
  });

  it('answers a post to a board address with no such form, or to a private product, with the one 404 of an unknown product', async () => {
    for (const tail of [
      () => '/suggest?q=dark%20mode',
      () => '/identity/code',
      (_: string, item: string) => `/items/${item}/plus-one`,
    ]) {
      const { sec, nope } = addresses(tail);
      const unknown = await visitor.post(nope, { csrf: '', code: '123456' });
      const hidden = await visitor.post(sec, { csrf: '', code: '123456' });
      expect(hidden.status, sec).to.equal(404);
      expect(hidden.text, sec).to.equal(unknown.text);
      const read = await visitor.get(sec, { accept: 'text/html' });
      expect(read.status, sec).to.equal(404);
      expect(read.text, sec).to.equal((await visitor.get(nope, { accept: 'text/html' })).text);
    }
  });
});
