/**
 * Every board answer with a body carries a strict Content-Security-Policy: a page its own
 * (BOARD_CSP), and what is no page — a redirect, the feed, JSON — one that lets its body load and
 * run nothing. Express writes a small "Redirecting to …" body under each redirect, which a browser
 * shows when it does not follow (a `view-source:`, a client that stops), and these answers went
 * out under the app's looser default (`style-src 'unsafe-inline'`). Task: "every board answer
 * with a body should carry the board's strict CSP … `default-src 'none'` is right for a body with
 * no script/style. Test: every redirect kind (301 canonical, 302/303 after forms, sign-in/out)
 * carries the header." Over real HTTP; the upstream sign-in's two redirects are checked in
 * upstream.e2e.test.ts.
 */
import { expect } from 'chai';
import { latestCode } from '../../auth/support/browserless.js';
import {
  BoardVisitor,
  type BoardWorld,
  field,
  filedKey,
  postBoardForm,
  startBoardWorld,
} from './support.js';

/** what a redirect's body may do: nothing (no script, style, image, form, frame or base) */
const BARE = "default-src 'none'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

describe('Board answers that are no page carry a bare strict CSP (e2e)', () => {
  let world: BoardWorld;

  before(async () => {
    world = await startBoardWorld();
  });
  after(() => world.fb.stop());

  /** a redirect of `status`, with a body, under the bare policy */
  function expectBare(answer: { status: number; headers: Headers; text: string }, status: number) {
    expect(answer.status).to.equal(status);
    expect(answer.text, 'the redirect has a body').to.not.equal('');
    expect(answer.headers.get('content-security-policy')).to.equal(BARE);
  }

  it('on the 301 to a canonical address and the 302 from a merged item', async () => {
    const v = new BoardVisitor(world.fb.url);
    expectBare(await v.get('/acme-co/app', { accept: 'text/html' }), 301);
    expectBare(await v.get('/acme-co/APP/Roadmap', { accept: 'text/html' }), 301);
    const owner = world.fb.api(world.owner.token);
    const items = '/v1/workspaces/acme-co/products/APP/items';
    const survivor = (await world.fb.submit(world.ws, 'APP', { body: 'The one kept' })).itemKey;
    const merged = (await world.fb.submit(world.ws, 'APP', { body: 'The one merged' })).itemKey;
    expect(
      (await owner.post(`${items}/${survivor}/merge`, { mergedKeys: [merged] })).status,
    ).to.equal(200);
    expectBare(await v.get(`${world.boardPath}/items/${merged}`, { accept: 'text/html' }), 302);
  });

  it('on the 303s after the forms: capture box, +1, and their addresses opened', async () => {
    const v = new BoardVisitor(world.fb.url);
    const filed = await postBoardForm(world, v, { body: 'Filed from the board form' });
    expectBare(filed, 303);
    const key = filedKey(filed);
    const other = (await world.fb.submit(world.ws, 'APP', { body: 'Someone else asked' })).itemKey;
    const page = await v.get(`${world.boardPath}/items/${other}`);
    const plusOne = `${world.boardPath}/items/${other}/plus-one`;
    expectBare(await v.post(plusOne, { csrf: field(page.text, 'csrf') }), 303);
    expectBare(await v.post(plusOne, { csrf: field(page.text, 'csrf'), back: 'board' }), 303);
    expectBare(await v.get(plusOne, { accept: 'text/html' }), 303);
    expectBare(await v.get('/capture/acme-co/APP', { accept: 'text/html' }), 303);
    expectBare(await v.get(`${world.boardPath}/identity/code`, { accept: 'text/html' }), 303);
    expect(key).to.match(/^APP-\d+$/);
  });

  it('on the 303s of signing in with a code and signing out', async () => {
    const v = new BoardVisitor(world.fb.url);
    const identity = `${world.boardPath}/identity`;
    const email = 'redirects@acme.io';
    const form = await v.get(identity);
    expectBare(await v.post(identity, { csrf: field(form.text, 'csrf'), email }), 303);
    const asked = await v.get(identity);
    const code = latestCode(world.fb.mailboxPath, email);
    expectBare(await v.post(`${identity}/code`, { csrf: field(asked.text, 'csrf'), code }), 303);
    const signedIn = await v.get(identity);
    expect(signedIn.text).to.include(email);
    expectBare(await v.post(`${identity}/sign-out`, { csrf: field(signedIn.text, 'csrf') }), 303);
  });

  it("but a page's 304 carries the page's own policies, as its 200 does", async () => {
    // RFC 9111 §4.3.4: a 304's headers replace those of the copy the browser keeps — a board page
    // revalidated under the bare policy ran none of its scripts (the +1 and the capture box
    // fell back to plain form posts in a second tab)
    for (const path of [world.boardPath, `${world.boardPath}/roadmap`]) {
      const anonymous = new BoardVisitor(world.fb.url);
      const page = await anonymous.get(path);
      expect(page.status, path).to.equal(200);
      const etag = page.headers.get('etag');
      expect(etag, `${path} is tagged`).to.be.a('string');
      for (const tag of [etag as string, '*']) {
        const again = await new BoardVisitor(world.fb.url).get(path, { 'if-none-match': tag });
        expect(again.status, `${path} If-None-Match: ${tag}`).to.equal(304);
        for (const header of ['content-security-policy', 'referrer-policy']) {
          expect(again.headers.get(header), `${path} ${header}`).to.equal(page.headers.get(header));
        }
      }
    }
    const feed = `${world.boardPath}/changelog.atom`;
    const tagged = (await new BoardVisitor(world.fb.url).get(feed)).headers.get('etag') as string;
    const feedAgain = await new BoardVisitor(world.fb.url).get(feed, { 'if-none-match': tagged });
    expect(feedAgain.status).to.equal(304);
    expect(feedAgain.headers.get('content-security-policy')).to.equal(BARE);
  });

  it('on the changelog feed, a body that loads and runs nothing either', async () => {
    const feed = await new BoardVisitor(world.fb.url).get(`${world.boardPath}/changelog.atom`);
    expect(feed.status).to.equal(200);
    expect(feed.headers.get('content-security-policy')).to.equal(BARE);
  });

  it('on JSON answers: the capture endpoint, suggestions, a +1, and refusals', async () => {
    const v = new BoardVisitor(world.fb.url);
    const json = { accept: 'application/json' };
    const bare = (answer: { headers: Headers; text: string }, what: string) => {
      expect(answer.text, what).to.match(/^\{/);
      expect(answer.headers.get('content-security-policy'), what).to.equal(BARE);
    };
    const endpoint = await v.get('/capture/acme-co/APP', json);
    expect(endpoint.status).to.equal(200);
    bare(endpoint, 'the capture endpoint');
    const suggest = await v.get(`${world.boardPath}/suggest?q=dark`, json);
    expect(suggest.status).to.equal(200);
    bare(suggest, 'suggestions');
    const filed = await postBoardForm(world, v, { body: 'Filed as JSON' }, { json: true });
    expect(filed.status).to.equal(200);
    bare(filed, 'a capture filed');
    const other = (await world.fb.submit(world.ws, 'APP', { body: 'Another one' })).itemKey;
    const page = await v.get(`${world.boardPath}/items/${other}`);
    const plusOne = `${world.boardPath}/items/${other}/plus-one`;
    const pressed = await v.post(plusOne, { csrf: field(page.text, 'csrf') }, { json: true });
    expect(pressed.status).to.equal(200);
    bare(pressed, 'a +1');
    const forged = await v.post(plusOne, { csrf: 'forged' }, { json: true });
    expect(forged.status).to.equal(403);
    bare(forged, 'a +1 refused');
    const unknown = await v.get('/acme-co/NOPE', json);
    expect(unknown.status).to.equal(404);
    bare(unknown, 'no board at the address');
  });
});
