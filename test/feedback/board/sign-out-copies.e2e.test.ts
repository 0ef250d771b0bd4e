/**
 * Signing out ends the visitor, not only the browser's cookie (src/feedback/board/sign-outs.ts).
 * README (Public board): "Signing out also retires the visitor: a copy of the cookie's value taken
 * before (a synced profile, a log), on the board or sent as the widget's visitor token, names
 * nobody from then on, and its holder is a new anonymous visitor (never an error)". Before, sign-out cleared the browser's copy only, and a copy named
 * the confirmed address until its expiry, a year later — on the board and, sent as the widget's
 * visitor token, on the capture endpoint. The whole feedback service over HTTP on 127.0.0.1.
 */
import { expect } from 'chai';
import {
  BoardVisitor,
  type BoardWorld,
  confirmEmail,
  field,
  fillTime,
  startBoardWorld,
} from './support.js';

describe('When a confirmed visitor signs out, a copy of their cookie taken before (e2e)', () => {
  let world: BoardWorld;
  let identity: string;
  before(async () => {
    world = await startBoardWorld();
    identity = `${world.boardPath}/identity`;
  });
  after(() => world.fb.stop());

  /** a browser holding `cookie` (a fresh one each time: nothing re-set is kept) */
  const holding = (cookie: string) => {
    const holder = new BoardVisitor(world.fb.url);
    holder.cookie = cookie;
    return holder;
  };
  /** the e-mail address a sealed visitor value names (its payload is base64url JSON) */
  const addressIn = (sealed: string) =>
    (JSON.parse(Buffer.from(sealed.split('.')[0]!, 'base64url').toString('utf8')) as { e: unknown })
      .e;

  async function signedOutCopy(email: string): Promise<string> {
    const v = new BoardVisitor(world.fb.url);
    await confirmEmail(world, v, email);
    const copy = v.cookie;
    expect((await holding(copy).get(world.boardPath)).text, 'before').to.include(email);
    const page = await v.get(identity);
    const done = await v.post(`${identity}/sign-out`, { csrf: field(page.text, 'csrf') });
    expect(done.status).to.equal(303);
    return copy;
  }

  it('names nobody on the board: its holder is a new anonymous visitor, never an error', async () => {
    const copy = await signedOutCopy('copied-out@acme.io');
    const board = await holding(copy).get(world.boardPath);
    expect(board.status).to.equal(200);
    expect(board.text).to.not.include('copied-out@acme.io');
    expect(board.text).to.include('Posting anonymously');

    const holder = holding(copy);
    const page = await holder.get(identity);
    expect(page.status).to.equal(200);
    expect(page.text).to.not.include('copied-out@acme.io');
    expect(holder.cookie, 'a cookie of a new visitor of its own').to.not.equal(copy);
  });

  it('files as a new anonymous visitor when sent as the widget visitor token', async () => {
    const copy = await signedOutCopy('widget-copy@acme.io');
    const capture = '/capture/acme-co/APP';
    const widget = new BoardVisitor(world.fb.url);
    const { formToken } = JSON.parse((await widget.get(capture)).text);
    fillTime(world);
    const res = await widget.post(
      capture,
      {
        formToken,
        body: 'Filed with a copied value.',
        visitor: copy.slice('board_visitor='.length),
      },
      { json: true, headers: { origin: 'http://127.0.0.1:1' } },
    );
    expect(res.status, res.text).to.equal(200);
    const answer = JSON.parse(res.text) as { visitor: string };
    expect(addressIn(answer.visitor), 'the visitor the item was filed as').to.equal(null);
  });
});
