/**
 * A board search is as long as search_items allows (spec: `q`, 1 to 500 characters) and no
 * longer: a longer `?q=` is refused as the API refuses it (400), on the board's page saying why.
 * It was cut to its first 500 characters and searched, the results shown as if for what the
 * visitor typed, and nothing told them. Characters are counted as the API counts them (code
 * points: 500 emoji are 500 characters).
 */
import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { BoardVisitor, type BoardWorld, startBoardWorld } from './support.js';

const search = '/v1/workspaces/acme-co/products/APP/items/search';

describe('The length of a board search (e2e)', () => {
  let world: BoardWorld;
  let owner: Api;
  let visitor: BoardVisitor;

  before(async () => {
    world = await startBoardWorld();
    owner = world.fb.api(world.owner.token);
    visitor = new BoardVisitor(world.fb.url);
    await world.fb.submit(world.ws, 'APP', { title: 'Dark mode', body: 'A night theme please' });
  });
  after(() => world.fb.stop());

  const boardSearch = (q: string) => visitor.get(`${world.boardPath}?q=${encodeURIComponent(q)}`);
  const apiSearch = (q: string) => owner.get(`${search}?q=${encodeURIComponent(q)}`);

  it('refuses a search over 500 characters with the board 400 page saying so, as search_items refuses it', async () => {
    const q = `dark ${'x'.repeat(496)}`;
    expect((await apiSearch(q)).status).to.equal(400);
    const page = await boardSearch(q);
    expect(page.status).to.equal(400);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    expect(page.text).to.include(
      'The search must be at most 500 characters long (this one has 501).',
    );
    expect(page.text).to.include('Back to Acme App');
    // no results for a query the visitor did not type
    expect(page.text).to.not.include('Dark mode');
  });

  it('searches 500 characters (white space around them aside), emoji counted as one each like the API counts them', async () => {
    for (const q of [`dark ${'x'.repeat(495)}`, '🌙'.repeat(500)]) {
      expect((await apiSearch(q)).status).to.equal(200);
      const page = await boardSearch(q);
      expect(page.status).to.equal(200);
      expect(page.text).to.include(`value="${q}"`);
    }
    expect((await apiSearch('🌙'.repeat(501))).status).to.equal(400);
    expect((await boardSearch('🌙'.repeat(501))).status).to.equal(400);
    // white space around a search is not part of it (the board searches it trimmed)
    expect((await boardSearch(`  dark ${'x'.repeat(495)}  `)).status).to.equal(200);
  });
});
