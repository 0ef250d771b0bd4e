/**
 * Board visitors over real HTTP (issue 12 item 2): a signed cookie identity (tier anonymous),
 * +1 as a toggle counted once per person, and an e-mail address that makes the visitor tier
 * `email` only once they confirmed the code sent to it.
 */
import { expect } from 'chai';
import { latestCode } from '../../auth/support/browserless.js';
import type { Api } from '../support/harness.js';
import { BoardVisitor, type BoardWorld, field, fillTime, startBoardWorld } from './support.js';

const items = '/v1/workspaces/acme-co/products/APP/items';

describe('Board visitors: +1s and a confirmed e-mail address (e2e)', () => {
  let world: BoardWorld;
  let owner: Api;

  before(async () => {
    world = await startBoardWorld();
    owner = world.fb.api(world.owner.token);
  });
  after(() => world.fb.stop());

  const item = async (key: string) => (await owner.get(`${items}/${key}`)).body;

  describe('When a visitor presses +1 twice, and another visitor once', () => {
    it('counts each person once, toggles off on the second press, and makes them participants', async () => {
      // issue 12: "One +1 per person per item (toggle); it counts in plusOneCount and makes the
      // visitor a participant"
      const { itemKey } = await world.fb.submit(world.ws, 'APP', { body: 'Vote for me' });
      const ana = new BoardVisitor(world.fb.url);
      const ben = new BoardVisitor(world.fb.url);
      const press = async (v: BoardVisitor, json = false) => {
        const page = await v.get(`${world.boardPath}/items/${itemKey}`);
        return v.post(
          `${world.boardPath}/items/${itemKey}/plus-one`,
          { csrf: field(page.text, 'csrf') },
          { json },
        );
      };
      const first = await press(ana);
      expect(first.status).to.equal(303);
      expect(first.headers.get('location')).to.match(new RegExp(`/items/${itemKey}$`));
      expect((await item(itemKey)).item.plusOneCount).to.equal(1);
      const mine = await ana.get(`${world.boardPath}/items/${itemKey}`);
      expect(mine.text).to.include('aria-pressed="true"');
      expect(mine.headers.get('cache-control')).to.include('private');
      const benAnswer = JSON.parse((await press(ben, true)).text);
      expect(benAnswer).to.include({ itemId: itemKey, plusOneCount: 2, plusOned: true });
      const detail = await item(itemKey);
      expect(detail.item.plusOneCount).to.equal(2);
      expect(
        detail.participants.filter((p: { role: string }) => p.role === 'plus-one'),
      ).to.have.length(2);
      const off = JSON.parse((await press(ana, true)).text);
      expect(off).to.include({ plusOneCount: 1, plusOned: false });
      expect((await item(itemKey)).item.plusOneCount).to.equal(1);
    });

    it('does what the pressed button showed: a page shown before the +1 does not withdraw it', async () => {
      // a board shown before the +1 (in another tab) shows the button unpressed; pressing it
      // there withdrew the +1 and showed the button unpressed again, one vote fewer
      const { itemKey } = await world.fb.submit(world.ws, 'APP', { body: 'Back and forth' });
      const v = new BoardVisitor(world.fb.url);
      const plusOne = `${world.boardPath}/items/${itemKey}/plus-one`;
      const before = await v.get(world.boardPath);
      const row = before.text.split('<li class="item">').find((li) => li.includes(plusOne))!;
      expect(field(row, 'given')).to.equal('false');
      const press = (given: string) => v.post(plusOne, { csrf: field(before.text, 'csrf'), given });
      await press('false');
      const csrf = field((await v.get(world.boardPath)).text, 'csrf');
      const again = await v.post(plusOne, { csrf, given: 'false' });
      expect(again.status).to.equal(303);
      expect((await item(itemKey)).item.plusOneCount).to.equal(1);
      const json = await v.post(plusOne, { csrf, given: 'false' }, { json: true });
      expect(JSON.parse(json.text)).to.include({ plusOneCount: 1, plusOned: true });
      // a button showing the +1 withdraws it, once
      await v.post(plusOne, { csrf, given: 'true' });
      await v.post(plusOne, { csrf, given: 'true' });
      expect((await item(itemKey)).item.plusOneCount).to.equal(0);
    });

    it('refuses a +1 carrying the cookie but not its CSRF token', async () => {
      // issue 12 item 6: "CSRF protection on cookie-authenticated forms"
      const { itemKey } = await world.fb.submit(world.ws, 'APP', { body: 'Forged votes' });
      const v = new BoardVisitor(world.fb.url);
      await v.post(`${world.boardPath}/items/${itemKey}/plus-one`, { csrf: '' });
      expect(v.cookie).to.not.equal('');
      const forged = await v.post(`${world.boardPath}/items/${itemKey}/plus-one`, {
        csrf: 'guess',
      });
      expect(forged.status).to.equal(403);
      expect((await item(itemKey)).item.plusOneCount).to.equal(1);
    });
  });

  describe("When another site posts to the board in a visitor's browser", () => {
    // README, "The public board": "Every cookie-authenticated form carries a CSRF token bound to
    // that id". The attack that token alone missed: a browser withholds the SameSite=Lax cookie
    // from another site's POST, so the board saw a new visitor, counted the +1 for them and set
    // a cookie replacing the visitor's own. Such requests (Sec-Fetch-Site cross-site/same-site,
    // or an Origin that is neither the board's nor the request's host) now answer 403 with
    // nothing recorded and no Set-Cookie; requests with neither header keep working.
    const evil = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    const sneaky: Record<string, string>[] = [
      evil,
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ];

    it('refuses a +1 without a cookie with 403, counts nothing and sets no cookie', async () => {
      const { itemKey } = await world.fb.submit(world.ws, 'APP', { body: 'Cross-site votes' });
      const path = `${world.boardPath}/items/${itemKey}/plus-one`;
      for (const headers of sneaky) {
        for (const json of [false, true]) {
          const v = new BoardVisitor(world.fb.url);
          const answer = await v.post(path, {}, { json, headers });
          const what = `${JSON.stringify(headers)} json=${json}`;
          expect(answer.status, what).to.equal(403);
          expect(answer.headers.get('set-cookie'), what).to.equal(null);
          if (json) expect(JSON.parse(answer.text).code, what).to.equal('permission-denied');
          else expect(answer.text, what).to.include('Please reload the page');
        }
      }
      expect((await item(itemKey)).item.plusOneCount).to.equal(0);
    });

    it('refuses the identity forms from another site the same way', async () => {
      for (const step of ['identity', 'identity/code', 'identity/upstream']) {
        const v = new BoardVisitor(world.fb.url);
        const answer = await v.post(
          `${world.boardPath}/${step}`,
          { email: 'kim@customer.example', code: '123456' },
          { headers: evil },
        );
        expect(answer.status, step).to.equal(403);
        expect(answer.headers.get('set-cookie'), step).to.equal(null);
      }
    });

    it("keeps counting +1s from the board's own pages and from clients that send neither header", async () => {
      const { itemKey } = await world.fb.submit(world.ws, 'APP', { body: 'Same-site votes' });
      const path = `${world.boardPath}/items/${itemKey}/plus-one`;
      const own = { origin: new URL(world.fb.url).origin, 'sec-fetch-site': 'same-origin' };
      const browser = new BoardVisitor(world.fb.url);
      expect((await browser.post(path, {}, { headers: own })).status).to.equal(303);
      expect(browser.cookie).to.not.equal('');
      const script = new BoardVisitor(world.fb.url);
      expect((await script.post(path, {}, { json: true })).status).to.equal(200);
      expect((await item(itemKey)).item.plusOneCount).to.equal(2);
    });

    it("files another site's capture post as the widget would, and sets no cookie", async () => {
      // the capture endpoint stays open to every origin (the widget); a board form token sent
      // from another site (a sandboxed frame's Origin is "null") is not the board's own post
      const board = await new BoardVisitor(world.fb.url).get(world.boardPath);
      fillTime(world);
      const v = new BoardVisitor(world.fb.url);
      const filed = await v.post(
        '/capture/acme-co/APP',
        { formToken: field(board.text, 'formToken'), body: 'Posted from a sandboxed frame' },
        { headers: { origin: 'null', 'sec-fetch-site': 'cross-site' } },
      );
      expect(filed.status).to.equal(303);
      expect(filed.headers.get('set-cookie')).to.equal(null);
      const key = filed.headers.get('location')!.split('/').pop()!;
      expect((await item(key)).item.via).to.equal('widget');
    });
  });

  describe('When a visitor confirms an e-mail address', () => {
    it('files as tier email only after the right code; a typed address alone stays anonymous', async () => {
      // issue 12: "becomes tier `email` only after the visitor confirms a code or link sent to
      // it (...never by merely typing it)"
      const v = new BoardVisitor(world.fb.url);
      const board = await v.get(world.boardPath);
      fillTime(world);
      const typed = await v.post('/capture/acme-co/APP', {
        formToken: field(board.text, 'formToken'),
        csrf: field(board.text, 'csrf'),
        body: 'Typed an address only',
        email: 'kim@customer.example',
      });
      expect(typed.status).to.equal(303);
      const typedKey = typed.headers.get('location')!.split('/').pop()!;
      expect((await item(typedKey)).item.author.tier).to.equal('anonymous');

      const form = await v.get(`${world.boardPath}/identity`);
      const sent = await v.post(`${world.boardPath}/identity`, {
        csrf: field(form.text, 'csrf'),
        email: 'kim@customer.example',
      });
      // answered with a redirect: the code form is what GET shows while the code is pending
      expect(sent.status).to.equal(303);
      const asked = await v.get(`${world.boardPath}/identity`);
      expect(asked.text).to.include('kim@customer.example');
      const wrong = await v.post(`${world.boardPath}/identity/code`, {
        csrf: field(asked.text, 'csrf'),
        code: '000000',
      });
      expect(wrong.status).to.equal(400);
      const code = latestCode(world.fb.mailboxPath, 'kim@customer.example');
      const right = await v.post(`${world.boardPath}/identity/code`, {
        csrf: field(asked.text, 'csrf'),
        code,
      });
      expect(right.status).to.equal(303);

      const again = await v.get(world.boardPath);
      expect(again.text).to.include('kim@customer.example');
      fillTime(world);
      const proven = await v.post('/capture/acme-co/APP', {
        formToken: field(again.text, 'formToken'),
        csrf: field(again.text, 'csrf'),
        body: 'Now with a confirmed address',
      });
      const key = proven.headers.get('location')!.split('/').pop()!;
      const filed = await item(key);
      expect(filed.item.author.tier).to.equal('email');
      const person = (
        await owner.get(`/v1/workspaces/acme-co/people/${filed.participants[0].personId}`)
      ).body;
      expect(person.email).to.equal('kim@customer.example');
    });
  });
});
