/**
 * The board's capture box without JavaScript, over real HTTP: a confirmed visitor can still give
 * a name, a refused post comes back with the reason and what was typed (also when the page's
 * token went stale in another tab), the box takes what its fields hold in any script, and the
 * title is not described by suggestions that are not shown. (The endpoint's own rules:
 * capture.e2e.)
 */
import { expect } from 'chai';
import {
  BoardVisitor,
  type BoardWorld,
  confirmEmail,
  field,
  fillTime,
  filedKey,
  postBoardForm,
  startBoardWorld,
} from './support.js';

const capture = '/capture/acme-co/APP';

describe('The capture box without JavaScript (e2e)', () => {
  let world: BoardWorld;
  const item = async (key: string) =>
    (await world.fb.api(world.owner.token).get(`/v1/workspaces/acme-co/products/APP/items/${key}`))
      .body.item;

  before(async () => {
    world = await startBoardWorld({ CAPTURE_IP_BURST: '8', CAPTURE_IP_PER_HOUR: '60' });
  });
  after(() => world.fb.stop());

  describe('When a visitor confirmed their e-mail address', () => {
    it('still asks for a name, and the item shows it as the author', async () => {
      // capture endpoint: "displayName? (≤ 100)" is taken from every visitor, confirmed or not
      const v = new BoardVisitor(world.fb.url);
      await confirmEmail(world, v, 'named@customer.example');
      const board = await v.get(world.boardPath);
      expect(board.text).to.include('name="displayName"');
      const key = filedKey(
        await postBoardForm(world, v, { body: 'Filed with a name', displayName: 'Kim Lee' }),
      );
      const filed = await item(key);
      expect(filed.author).to.include({ tier: 'email', displayName: 'Kim Lee' });
      expect((await v.get(`${world.boardPath}/items/${key}`)).text).to.include(
        'by <span dir="auto">Kim Lee</span>',
      );
    });
  });

  describe('When a visitor fills the box to its limits in a script of 3-byte characters', () => {
    it('files it: the form a browser encodes (9 bytes a character) is not refused as too large', async () => {
      // README: "body (1–5000), title? (≤ 200), displayName? (≤ 100)" -- characters, whatever the
      // script; was 400 "request body is too large: at most 32,768 bytes", and the text lost
      const v = new BoardVisitor(world.fb.url);
      const kana = (n: number) => 'フィードバック'.repeat(n).slice(0, n);
      const full = { title: kana(200), body: kana(5000), displayName: kana(100) };
      const filed = await postBoardForm(world, v, full);
      const refusal = /class="error" role="alert">([^<]*)/.exec(filed.text)?.[1];
      expect(filed.status, refusal).to.equal(303);
      const saved = await item(filedKey(filed));
      expect(saved.title).to.equal(full.title);
      expect(saved.body).to.equal(full.body);
    });
  });

  describe('When the visitor got their cookie in another tab after the board was shown', () => {
    it('shows the board again with what was typed and their token, and sending it again files it', async () => {
      // a +1 in a second tab makes the visitor; the first tab's form, shown before, carries no
      // token of theirs: it answered "Please reload the page", and the reload lost the text
      const v = new BoardVisitor(world.fb.url);
      const shown = await v.get(world.boardPath);
      const { itemKey } = await world.fb.submit(world.ws, 'APP', { body: 'Voted in a second tab' });
      const voted = await v.post(`${world.boardPath}/items/${itemKey}/plus-one`, { back: 'item' });
      expect(voted.status).to.equal(303);
      fillTime(world);
      const typed = { title: 'Two tabs', body: 'Typed in the first tab', displayName: 'Ari' };
      const form = { formToken: field(shown.text, 'formToken'), csrf: field(shown.text, 'csrf') };
      const stale = await v.post(capture, { ...form, ...typed });
      expect(stale.status).to.equal(403);
      expect(stale.text).to.include('send your feedback again');
      expect(stale.text)
        .to.include('value="Two tabs"')
        .and.include('Typed in the first tab</textarea>');
      const again = await v.post(capture, {
        formToken: field(stale.text, 'formToken'),
        csrf: field(stale.text, 'csrf'),
        ...typed,
      });
      expect(again.status).to.equal(303);
      expect((await item(filedKey(again))).title).to.equal('Two tabs');
      // another site's post with the cookie gets no token of the visitor's
      const elsewhere = await v.post(
        capture,
        { ...form, ...typed, body: 'From elsewhere' },
        { headers: { 'sec-fetch-site': 'cross-site' } },
      );
      expect(elsewhere.status).to.equal(403);
      expect(elsewhere.text).to.not.include('name="csrf"');
    });
  });

  describe('When the board refuses a post', () => {
    const typed = { title: 'Dark <mode> & more', body: 'Line one\nLine "two"', displayName: 'Ari' };
    const expectFilledIn = (html: string) => {
      expect(html).to.include('class="capture" data-capture');
      expect(html).to.include('value="Dark &lt;mode> &amp; more"');
      expect(html).to.match(/<textarea[^>]*>Line one\nLine (&quot;|")two(&quot;|")<\/textarea>/);
      expect(html).to.include('value="Ari"');
      expect(html).to.include('role="alert"');
    };

    it('shows the board again, status 400, with the reason and what was typed (too fast)', async () => {
      // README: "a readable page for forms" -- one that keeps the visitor's words
      const v = new BoardVisitor(world.fb.url);
      const refused = await postBoardForm(world, v, typed, { wait: false });
      expect(refused.status).to.equal(400);
      expect(refused.headers.get('content-type')).to.match(/^text\/html/);
      // a page's message stands alone: a sentence, capitalized (respond.ts asSentence)
      expect(refused.text).to.include('Sent too fast; wait a few seconds and send it again');
      expectFilledIn(refused.text);
      // the form as shown again goes through once the fill time has passed
      fillTime(world);
      const again = await v.post(capture, {
        formToken: field(refused.text, 'formToken'),
        csrf: field(refused.text, 'csrf'),
        ...typed,
      });
      expect(again.status).to.equal(303);
      expect((await item(filedKey(again))).title).to.equal(typed.title);
    });

    it("says what is wrong with a field in words for visitors, not a validator's", async () => {
      // was "title: Too big: expected string to have <=200 characters"
      const v = new BoardVisitor(world.fb.url);
      const tooLong = await postBoardForm(world, v, { ...typed, title: 'x'.repeat(201) });
      expect(tooLong.status).to.equal(400);
      expect(tooLong.text).to.include('The title must be at most 200 characters long.');
      // kept as far as the field holds it (maxlength 200, as a browser would)
      expect(tooLong.text).to.include(`value="${'x'.repeat(200)}"`);
    });

    it('does the same for too many links (400) and for a rate limit (429, Retry-After)', async () => {
      // README: "at most 3 links"; "A refusal is HTTP 429 with `Retry-After`"
      const v = new BoardVisitor(world.fb.url);
      const links = 'see http://a.example http://b.example http://c.example http://d.example';
      const tooManyLinks = await postBoardForm(world, v, { ...typed, body: links });
      expect(tooManyLinks.status).to.equal(400);
      expect(tooManyLinks.text).to.include('http://d.example</textarea>');
      // the field's bound counts characters, as the schema does: 2,600 emoji and the links fit
      // in 5,000, and come back whole (a cut by UTF-16 units kept half of them and no link)
      const emoji = await postBoardForm(world, v, {
        ...typed,
        body: `${'😀'.repeat(2600)} ${links}`,
      });
      expect(emoji.status).to.equal(400);
      expect(emoji.text).to.include(`${'😀'.repeat(2600)} ${links}</textarea>`);
      for (let i = 0; i < 12; i++) {
        const burst = await postBoardForm(world, v, { body: `burst ${i}` }, { json: true });
        if (burst.status === 429) break;
      }
      const limited = await postBoardForm(world, v, typed);
      expect(limited.status).to.equal(429);
      expect(Number(limited.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(limited.text).to.include('Slow down');
      // kept in the visitor's own browser only, so Back past it does not post it again
      // (back-after-refusal.browser.e2e.test.ts)
      expect(limited.headers.get('cache-control')).to.equal('private, no-cache');
      expectFilledIn(limited.text);
    });
  });

  describe('When the page is shown without JavaScript', () => {
    it('does not point the title at the hidden suggestions', async () => {
      // aria-describedby names the suggestions only while they are shown (board.js sets it)
      const page = await new BoardVisitor(world.fb.url).get(world.boardPath);
      const title = /<input[^>]*id="capture-title"[^>]*>/.exec(page.text)![0];
      expect(title).to.not.include('aria-describedby');
    });
  });
});
