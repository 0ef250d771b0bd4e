import { expect } from 'chai';
import { loadEnergeticEmbedder } from '../../../src/search/energetic-embedder.js';
import { registerPerson, startWorld, type World } from '../followup/support/world.js';

/** Realistic items; the queries below share no words with the item they must find. */
const ITEMS = [
  {
    title: 'Please add a night theme',
    body: 'I use the app late in the evening and the bright screen is blinding.',
  },
  {
    title: 'Export my data to a spreadsheet',
    body: 'I need to get all my entries into Excel for my accountant.',
  },
  {
    title: 'App crashes when I upload a photo',
    body: 'Every time I attach a picture from my phone it closes.',
  },
  {
    title: 'Let me log in with my Google account',
    body: 'Remembering another password is annoying.',
  },
  { title: 'Syncing takes forever', body: 'It takes minutes before changes show up on my laptop.' },
];

describe('search_items and search_people over HTTP (bundled encoder)', function () {
  this.timeout(60_000);
  let world: World;
  const keys: string[] = [];
  const people: string[] = [];

  before(async () => {
    world = await startWorld({ embedder: await loadEnergeticEmbedder() });
    const names = ['Ada Lovelace', 'Bob Stone', 'Cy Young', 'Dee Park', 'Ed Moss'];
    for (const [i, item] of ITEMS.entries()) {
      const { itemKey, personId } = await world.submit({
        email: `${names[i]!.split(' ')[0]!.toLowerCase()}@example.com`,
        name: names[i]!,
        ...item,
      });
      keys.push(itemKey);
      people.push(personId);
    }
  });
  after(() => world.stop());

  const searchItems = (qs: string) =>
    world.api().get(`/v1/workspaces/${world.slug}/products/ACME/items/search?${qs}`);
  const searchPeople = (qs: string) =>
    world.api().get(`/v1/workspaces/${world.slug}/people/search?${qs}`);

  describe('When a maker searches by meaning', () => {
    it('finds the item without sharing its words, with scores in [0, 1] best first', async () => {
      // spec: "search_items ... semantic ranking; score between 0 and 1, higher is closer"
      await world.search.whenIdle();
      const res = await searchItems('q=dark%20mode');
      expect(res.status).to.equal(200);
      expect(res.body.hits[0].item.id).to.equal(keys[0]);
      const scores = res.body.hits.map((h: { score: number }) => h.score);
      for (const s of scores) expect(s).to.be.within(0, 1);
      expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
      const csv = await searchItems('q=save%20a%20table%20for%20bookkeeping&limit=1');
      expect(csv.body.hits.map((h: { item: { id: string } }) => h.item.id)).to.deep.equal([
        keys[1],
      ]);
    });

    it('filters by status and leaves out merged items', async () => {
      await world.setStatus(keys[2]!, 'planned');
      const planned = await searchItems('q=dark%20mode&status=planned');
      expect(planned.body.hits.map((h: { item: { id: string } }) => h.item.id)).to.deep.equal([
        keys[2],
      ]);
      const { itemKey: dup } = await world.submit({
        email: 'fay@example.com',
        name: 'Fay',
        title: 'Dark colours for the evening',
        body: 'Too bright.',
      });
      await world.search.whenIdle();
      expect(
        (await searchItems('q=dark%20mode')).body.hits.map(
          (h: { item: { id: string } }) => h.item.id,
        ),
      ).to.include(dup);
      await world.merge(keys[0]!, [dup]);
      expect(
        (await searchItems('q=dark%20mode')).body.hits.map(
          (h: { item: { id: string } }) => h.item.id,
        ),
      ).not.to.include(dup);
    });
  });

  describe('When an item is written', () => {
    it('is searchable within the documented delay, without the write waiting for the model', async () => {
      const started = Date.now();
      const { itemKey } = await world.submit({
        email: 'gus@example.com',
        name: 'Gus',
        title: 'Invoices in euros',
        body: 'Our company bills customers in EUR.',
      });
      const deadline = started + 5_000;
      let found = false;
      while (!found && Date.now() < deadline) {
        const res = await searchItems('q=currency%20of%20bills&limit=3');
        found = res.body.hits.some((h: { item: { id: string } }) => h.item.id === itemKey);
        if (!found) await new Promise((r) => setTimeout(r, 50));
      }
      expect(found, 'new item found by meaning within 5 s').to.equal(true);
    });
  });

  describe('When a maker searches by the exact words of an item', () => {
    // issue 14: "an exact product term or code ranks its item first even when the encoder ranks
    // it low"; "an item ... is findable by its words in the answer of the write's read-your-writes"
    it('finds a new item by an error code at once, first, before its vector exists', async () => {
      const { itemKey } = await world.submit({
        email: 'ivy@example.com',
        name: 'Ivy',
        title: 'Desktop client stuck',
        body: 'It shows ERR_4013 after the laptop wakes up and nothing moves until I log out.',
      });
      const res = await searchItems('q=ERR_4013&limit=3');
      expect(res.status).to.equal(200);
      expect(res.body.hits[0]?.item.id).to.equal(itemKey);
      expect(res.body.hits[0].score).to.be.within(0.7, 1);
    });
  });

  describe('When people are searched', () => {
    it('finds a person by part of their e-mail address, at once', async () => {
      // issue 14: "search_people finds a person by part of their e-mail"
      const { personId } = await world.submit({
        email: 'k.nakamura@globex-corp.example',
        name: 'Kim',
        title: 'Shortcuts',
        body: 'Keyboard shortcuts for the board view.',
      });
      for (const q of ['nakamura', 'globex', 'globex-corp']) {
        const res = await searchPeople(`q=${q}&limit=3`);
        expect(res.status).to.equal(200);
        expect(res.body.hits[0]?.person.id, q).to.equal(personId);
      }
    });

    it('finds a person by the topic they raised and by their name', async () => {
      await world.search.whenIdle();
      const topic = await searchPeople('q=sign%20in%20without%20a%20password');
      expect(topic.status).to.equal(200);
      expect(topic.body.hits[0].person.id).to.equal(people[3]);
      expect(topic.body.hits[0].person).to.include({
        displayName: 'Dee Park',
        email: 'dee@example.com',
      });
      const name = await searchPeople('q=Ada%20Lovelace&limit=1');
      expect(name.body.hits.map((h: { person: { id: string } }) => h.person.id)).to.deep.equal([
        people[0],
      ]);
      for (const h of topic.body.hits) expect(h.score).to.be.within(0, 1);
    });

    it('finds a person who only +1d the topic', async () => {
      const voter = await registerPerson(world, { email: 'hal@example.com', name: 'Hal' });
      await world.plusOne(keys[4]!, voter);
      await world.search.whenIdle();
      const res = await searchPeople('q=slow%20synchronisation&limit=5');
      expect(res.body.hits.map((h: { person: { id: string } }) => h.person.id)).to.include.members([
        people[4],
        voter,
      ]);
    });
  });

  describe('When the query is out of bounds', () => {
    it('answers 400 invalid-argument', async () => {
      for (const qs of [
        'q=',
        `q=${'x'.repeat(501)}`,
        'q=a&limit=51',
        'q=a&limit=0',
        'q=a&status=done',
        '',
      ]) {
        const res = await searchItems(qs);
        expect(res.status, qs).to.equal(400);
        expect(res.body.code).to.equal('invalid-argument');
      }
      for (const qs of ['q=', `q=${'x'.repeat(201)}`, 'q=a&limit=51']) {
        expect((await searchPeople(qs)).status, qs).to.equal(400);
      }
    });
  });
});
