/**
 * Confirming an e-mail address on the board, over real HTTP (README "The public board": the
 * identity page "confirm[s] an e-mail address with a 6-digit code"). Sending the code answers
 * with a redirect, and the page asking for the code is what GET shows while a code is pending:
 * a reload sends no second code and spends none of the visitor's allowance.
 */
import { expect } from 'chai';
import { latestCode } from '../../auth/support/browserless.js';
import {
  BoardVisitor,
  type BoardWorld,
  confirmEmail,
  field,
  filedKey,
  mailsTo,
  postBoardForm,
  startBoardWorld,
} from './support.js';

describe('Confirming an e-mail address on the board (e2e)', () => {
  let world: BoardWorld;
  let identity: string;

  before(async () => {
    world = await startBoardWorld();
    identity = `${world.boardPath}/identity`;
  });
  after(() => world.fb.stop());

  describe('When a visitor asks for a code and then reloads or comes back to the page', () => {
    it('redirects to the code form, which GET shows again without sending another code', async () => {
      // POST-redirect-GET: "reloading re-POSTs and mails a second code" must not happen
      const email = 'reload@customer.example';
      const v = new BoardVisitor(world.fb.url);
      const start = await v.get(identity);
      expect(start.text).to.include('name="email"');
      const sent = await v.post(identity, { csrf: field(start.text, 'csrf'), email });
      expect(sent.status).to.equal(303);
      expect(sent.headers.get('location')).to.equal(`${world.fb.url}${identity}`);
      for (let reload = 0; reload < 4; reload++) {
        const page = await v.get(identity);
        expect(page.status).to.equal(200);
        expect(page.text).to.include(email).and.include('name="code"');
        expect(page.headers.get('cache-control')).to.include('no-store');
      }
      expect(mailsTo(world, email)).to.equal(1);
      const asked = await v.get(identity);
      const done = await v.post(`${identity}/code`, {
        csrf: field(asked.text, 'csrf'),
        code: latestCode(world.fb.mailboxPath, email),
      });
      expect(done.status).to.equal(303);
      expect((await v.get(world.boardPath)).text).to.include(`<strong>${email}</strong>`);
    });

    it('offers the address form again from the code form, to ask for a new code', async () => {
      const v = new BoardVisitor(world.fb.url);
      const start = await v.get(identity);
      await v.post(identity, { csrf: field(start.text, 'csrf'), email: 'typo@customer.exmaple' });
      const asked = await v.get(identity);
      const another = /href="([^"]*\?another)"/.exec(asked.text)?.[1];
      expect(another).to.equal(`${world.fb.url}${identity}?another`);
      const form = await v.get(new URL(another!).pathname + new URL(another!).search);
      expect(form.text).to.include('name="email"').and.not.include('name="code"');
    });
  });

  describe('When the address is refused', () => {
    it('shows the form again with why, in words for people, and the address as typed', async () => {
      // the capture box keeps what was typed; this form said only "email: Invalid email
      // address" on a page with no form and a link away from it
      const v = new BoardVisitor(world.fb.url);
      const start = await v.get(identity);
      const typed = 'max@localhost';
      const refused = await v.post(identity, { csrf: field(start.text, 'csrf'), email: typed });
      expect(refused.status).to.equal(400);
      expect(refused.text).to.include('The e-mail address must be a valid email.');
      expect(refused.text).to.match(/<input id="email" name="email"[^>]* value="max@localhost"/);
      expect(mailsTo(world, typed)).to.equal(0);
      // the form on that page works: the corrected address gets its code
      const fixed = await v.post(identity, {
        csrf: field(refused.text, 'csrf'),
        email: 'max@customer.example',
      });
      expect(fixed.status).to.equal(303);
      expect(mailsTo(world, 'max@customer.example')).to.equal(1);
    });
  });

  describe('When what is typed for the code is not 6 digits', () => {
    it('shows the code form again saying so in words for people, and counts no wrong try', async () => {
      // was a page with no form saying "The code has an invalid format (must match /^\d{6}$/)."
      const email = 'digits@customer.example';
      const v = new BoardVisitor(world.fb.url);
      const start = await v.get(identity);
      await v.post(identity, { csrf: field(start.text, 'csrf'), email });
      const asked = await v.get(identity);
      const refused = await v.post(`${identity}/code`, {
        csrf: field(asked.text, 'csrf'),
        code: '12345o',
      });
      expect(refused.status).to.equal(400);
      expect(refused.text).to.include('The code is the 6 digits in the e-mail we sent');
      expect(refused.text).to.not.include('must match');
      expect(refused.text).to.include('name="code"').and.include(email);
      // a JSON caller gets the same words in the service's envelope
      const json = await v.post(
        `${identity}/code`,
        { csrf: field(refused.text, 'csrf'), code: 'abc' },
        { json: true },
      );
      expect(json.status).to.equal(400);
      expect(JSON.parse(json.text)).to.deep.equal({
        error: 'The code is the 6 digits in the e-mail we sent; type them again.',
        code: 'invalid-argument',
      });
      // no try was spent on it: the first wrong code leaves 4 of the 5
      const code = latestCode(world.fb.mailboxPath, email);
      const wrong = await v.post(`${identity}/code`, {
        csrf: field(refused.text, 'csrf'),
        code: code === '000000' ? '111111' : '000000',
      });
      expect(wrong.text).to.include('That code is not right; 4 tries left.');
      // the form on that page works, with the right code and spaces around it
      const done = await v.post(`${identity}/code`, {
        csrf: field(wrong.text, 'csrf'),
        code: ` ${code} `,
      });
      expect(done.status).to.equal(303);
    });
  });

  describe('When a visitor without a pending code opens the page', () => {
    it('shows the address form', async () => {
      const v = new BoardVisitor(world.fb.url);
      await v.get(identity);
      const again = await v.get(identity);
      expect(again.text).to.include('name="email"').and.not.include('name="code"');
    });
  });

  describe('When a confirmed visitor posts without a display name', () => {
    it('is shown as the identity page said: "Anonymous", never their address', async () => {
      // spec: an item's author is `tier` and `displayName` (string or null); README: a typed or
      // confirmed address is never shown. The page must not promise that the feedback "shows
      // who it is from": it says what is shown (the name given, or "Anonymous")
      const email = 'quiet@customer.example';
      const v = new BoardVisitor(world.fb.url);
      await confirmEmail(world, v, email);
      const filed = await postBoardForm(world, v, { title: 'Quiet one', body: 'No name given' });
      const item = await v.get(`${world.boardPath}/items/${filedKey(filed)}`);
      expect(item.text).to.match(/by <span dir="auto">Anonymous<\/span> on/);
      expect(item.text).to.not.include(email);
      const page = (await v.get(identity)).text;
      expect(page).to.not.include('shows who it is from');
      expect(page).to.include(
        'your feedback is shown with the name you give when you post it, or as “Anonymous”',
      );
      expect(page).to.include('never shows your address');
      // the capture box says the same to the confirmed visitor, instead of "You post as <address>"
      const board = (await v.get(world.boardPath)).text;
      expect(board).to.not.include('You post as');
      expect(board).to.match(
        /the board\s+shows your name above, or “Anonymous”, never your address/,
      );
    });
  });

  describe('When a confirmed visitor signs out', () => {
    it('drops the cookie, so the board no longer shows or posts as their address', async () => {
      // README: a confirmed address stays in the cookie for a year; on a shared computer the
      // next person would post as them and read their address, unless they can sign out
      const v = new BoardVisitor(world.fb.url);
      await confirmEmail(world, v, 'shared@acme.io');
      expect((await v.get(world.boardPath)).text).to.include('shared@acme.io');
      const page = await v.get(identity);
      const signOut = `${identity}/sign-out`;
      expect(page.text).to.include(`action="${world.fb.url}${signOut}"`);
      const csrf = field(page.text, 'csrf');
      const elsewhere = await v.post(
        signOut,
        { csrf },
        { headers: { 'sec-fetch-site': 'cross-site' } },
      );
      expect(elsewhere.status).to.equal(403);
      const done = await v.post(signOut, { csrf });
      expect(done.status).to.equal(303);
      expect(done.headers.get('location')).to.equal(`${world.fb.url}${world.boardPath}`);
      expect(done.headers.get('set-cookie')).to.match(
        /^board_visitor=; Max-Age=0; Path=\/; HttpOnly/,
      );
      const board = await v.get(world.boardPath);
      expect(board.text).to.include('Posting anonymously');
      expect(board.text).to.not.include('shared@acme.io');
    });
  });
});
