/**
 * A `q` of only white space names nothing to look for. search_people, search_items and
 * summarize_feedback answered it 200 with no hits — for summarize_feedback `count: 0` and every
 * status 0, a false "no feedback" for a product full of it — where search_notes refuses it. The
 * query is trimmed like search_notes' and then held to its "1 to N chars" (spec "Read",
 * "Synthesis"): blank is 400, and surrounding spaces do not change what is found.
 */
import { expect } from 'chai';
import { startWorld, type World } from './support/world.js';

describe('When a search or summary is sent a q of only white space', () => {
  let world: World;
  before(async () => {
    world = await startWorld();
    await world.submit({ email: 'ann@x.io', name: 'Ann', body: 'Export the board as CSV' });
  });
  after(() => world.stop());

  const paths = () => {
    const ws = `/v1/workspaces/${world.slug}`;
    return {
      search_people: `${ws}/people/search`,
      search_items: `${ws}/products/ACME/items/search`,
      summarize_feedback: `${ws}/products/ACME/summary`,
    };
  };

  it('answers 400 invalid-argument naming q, not an empty answer', async () => {
    for (const [op, path] of Object.entries(paths())) {
      for (const q of ['   ', '\t', ' \n ']) {
        const res = await world.api().get(`${path}?q=${encodeURIComponent(q)}`);
        expect(res.status, `${op} ${JSON.stringify(q)}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body).to.deep.equal({ error: 'q must not be empty', code: 'invalid-argument' });
      }
    }
  });

  it('answers 400 the same to a q of only zero-width or format characters (U+200B, U+FEFF, U+00AD)', async () => {
    // they show nothing either (Default_Ignorable_Code_Point), so the q names nothing to look
    // for: it was searched, and summarize_feedback answered count 0 for a product with feedback
    const blank = ['\u200b', '\u200c\u200d', ' \u2060 ', '\ufeff', '\u00ad', '\u200b \u034f\u180e'];
    for (const [op, path] of Object.entries(paths())) {
      for (const q of blank) {
        const res = await world.api().get(`${path}?q=${encodeURIComponent(q)}`);
        expect(res.status, `${op} ${JSON.stringify(q)}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body).to.deep.equal({ error: 'q must not be empty', code: 'invalid-argument' });
      }
    }
  });

  it('finds the same with and without surrounding spaces', async () => {
    const { search_people, search_items } = paths();
    const people = await world.api().get(`${search_people}?q=${encodeURIComponent('  ann  ')}`);
    expect(people.status).to.equal(200);
    expect(people.body.hits.map((h: { person: { email: string } }) => h.person.email)).to.include(
      'ann@x.io',
    );
    const items = await world.api().get(`${search_items}?q=${encodeURIComponent(' csv ')}`);
    expect(items.status).to.equal(200);
    expect(items.body.hits).to.have.length(1);
  });
});
