/**
 * A board search of only white space is no search: the board lists its items as without one
 * (the board reads `q` trimmed). A search of only zero-width or format characters (U+200B,
 * U+FEFF, the soft hyphen U+00AD, other Default_Ignorable_Code_Point characters) shows nothing
 * either and is no search too — the same rule search_items holds it to (400 `q must not be
 * empty`): it was searched, so the visitor saw "no items" on a board full of them, and each such
 * page spent one of their IP's searches.
 */
import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { BoardVisitor, type BoardWorld, startBoardWorld } from './support.js';

const search = '/v1/workspaces/acme-co/products/APP/items/search';

describe('A board search that shows nothing (e2e)', () => {
  let world: BoardWorld;
  let owner: Api;
  let visitor: BoardVisitor;

  before(async () => {
    world = await startBoardWorld();
    owner = world.fb.api(world.owner.token);
    visitor = new BoardVisitor(world.fb.url);
    await world.fb.submit(world.ws, 'APP', { title: 'Dark mode', body: 'A night theme please' });
    await world.fb.caughtUp();
  });
  after(() => world.fb.stop());

  const boardSearch = (q: string) => visitor.get(`${world.boardPath}?q=${encodeURIComponent(q)}`);

  it('lists the board as without a search, as for a search of only spaces', async () => {
    expect((await boardSearch('   ')).text).to.include('Dark mode');
    for (const q of ['\u200b', ' \u2060\ufeff ', '\u00ad\u200c\u200d']) {
      expect((await owner.get(`${search}?q=${encodeURIComponent(q)}`)).status).to.equal(400);
      const page = await boardSearch(q);
      expect(page.status, JSON.stringify(q)).to.equal(200);
      expect(page.text, JSON.stringify(q)).to.include('Dark mode');
    }
  });
});
