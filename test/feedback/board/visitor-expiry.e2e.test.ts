/**
 * The sealed visitor value carries its own expiry (src/feedback/board/tokens.ts). README (Public
 * board): "the sealed value carries its expiry, the cookie's Max-Age of a year from when it was
 * set, checked on every use; a value past it, or one sealed before values carried one, is no
 * visitor". Before, the value never expired: signing out cleared the browser's copy only, and a
 * copy taken from it (a shared computer, a synced profile, a log) named the confirmed address for
 * ever. The whole feedback service over HTTP on 127.0.0.1, on the harness clock.
 */
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { BoardVisitor, type BoardWorld, confirmEmail, startBoardWorld } from './support.js';

const DAY = 24 * 60 * 60 * 1000;

describe('When a board visitor cookie value is used long after it was set (e2e)', () => {
  let world: BoardWorld;
  before(async () => {
    world = await startBoardWorld();
  });
  after(() => world.fb.stop());

  /** the board page as a browser holding `cookie` (a fresh one each time: nothing re-set is kept) */
  const boardWith = async (cookie: string) => {
    const holder = new BoardVisitor(world.fb.url);
    holder.cookie = cookie;
    return holder.get(world.boardPath);
  };

  it('names the confirmed address within a year of being set, and is no visitor after it', async () => {
    const v = new BoardVisitor(world.fb.url);
    await confirmEmail(world, v, 'copied@acme.io');
    const copy = v.cookie;
    expect(copy).to.match(/^board_visitor=./);

    world.fb.clock.advance(364 * DAY);
    expect((await boardWith(copy)).text).to.include('copied@acme.io');

    world.fb.clock.advance(2 * DAY); // past the cookie's Max-Age of 365 days
    const later = await boardWith(copy);
    expect(later.status).to.equal(200);
    expect(later.text).to.not.include('copied@acme.io');
    expect(later.text).to.include('Posting anonymously');
  });

  it('takes a value sealed without an expiry (the old format) as no cookie, never a 500', async () => {
    // sealed as the board sealed visitors before values carried an expiry: a valid signature
    const key = createHmac('sha256', world.fb.runtime.runtime.context.secret)
      .update('public-board')
      .digest();
    const payload = Buffer.from(JSON.stringify({ v: 'old-visitor-1', e: 'old@acme.io' })).toString(
      'base64url',
    );
    const mac = createHmac('sha256', key).update(`visitor\0${payload}`).digest('base64url');
    const old = `board_visitor=${payload}.${mac}`;

    const board = await boardWith(old);
    expect(board.status).to.equal(200);
    expect(board.text).to.not.include('old@acme.io');
    expect(board.text).to.include('Posting anonymously');
    // the identity page makes the holder a new anonymous visitor with a cookie of its own
    const holder = new BoardVisitor(world.fb.url);
    holder.cookie = old;
    const identity = await holder.get(`${world.boardPath}/identity`);
    expect(identity.status).to.equal(200);
    expect(identity.headers.get('set-cookie')).to.match(/^board_visitor=[^;]+; Max-Age=31536000/);
    expect(holder.cookie).to.not.equal(old);
  });
});
