import { expect } from 'chai';
import type { FollowUpEntry } from '../../../src/feedback/followup/followup.js';
import { DAY_MS } from '../../../src/feedback/followup/rules.js';
import { OUTSIDER, registerPerson, startWorld, type World } from './support/world.js';

const ids = (entries: { id: string }[]) => entries.map((e) => e.id);

describe('who_needs_followup and get_person over HTTP', () => {
  let world: World;
  before(async () => {
    world = await startWorld({ staleDays: 30 });
  });
  after(() => world.stop());

  const followup = async () => {
    const res = await world.api().get(`/v1/workspaces/${world.slug}/followup`);
    expect(res.status).to.equal(200);
    return res.body as Record<
      'shippedUnnotified' | 'stalePromises' | 'repliesOwed',
      FollowUpEntry[]
    >;
  };
  const person = async (personId: string) => {
    const res = await world.api().get(`/v1/workspaces/${world.slug}/people/${personId}`);
    expect(res.status).to.equal(200);
    return res.body;
  };

  describe('When a person submits and nobody answers yet', () => {
    it('owes them a reply and says they await one', async () => {
      // spec: "awaitingReply: true when the person spoke last on an open thread and is still waiting"
      const { itemKey, personId } = await world.submit({ email: 'ada@x.io', name: 'Ada' });
      expect(ids((await followup()).repliesOwed)).to.include(itemKey);
      const record = await person(personId);
      expect(record.awaitingReply).to.equal(true);
      expect(record.openItemCount).to.equal(1);
      expect(record.productKeys).to.deep.equal(['ACME']);
      expect(record.items).to.deep.equal([
        {
          id: itemKey,
          productId: 'ACME',
          title: 'Please add dark mode',
          status: 'new',
          role: 'submitted',
          createdAt: world.now(),
        },
      ]);
    });
  });

  describe('When a maker or an agent replies last', () => {
    for (const kind of ['maker', 'agent'] as const) {
      it(`clears the debt after a ${kind} reply and brings it back when the person answers`, async () => {
        const { itemKey, personId } = await world.submit({
          email: `${kind}-case@x.io`,
          name: 'Cy',
        });
        await world.reply(itemKey, kind, 'u-max');
        expect(ids((await followup()).repliesOwed)).not.to.include(itemKey);
        expect((await person(personId)).awaitingReply).to.equal(false);

        await world.reply(itemKey, 'person', personId, 'Any news?');
        expect(ids((await followup()).repliesOwed)).to.include(itemKey);
        expect((await person(personId)).awaitingReply).to.equal(true);
      });
    }
  });

  describe('When another person speaks after the submitter', () => {
    it('makes that person the one waiting; a +1 is not speaking', async () => {
      const { itemKey, personId: ada } = await world.submit({ email: 'ada2@x.io', name: 'Ada' });
      const bob = await registerPerson(world, { email: 'bob@x.io', name: 'Bob' });
      await world.plusOne(itemKey, bob);
      expect((await person(bob)).awaitingReply).to.equal(false);
      expect((await person(ada)).awaitingReply).to.equal(true);

      await world.reply(itemKey, 'person', bob, 'Me too, please');
      expect((await person(bob)).awaitingReply).to.equal(true);
      expect((await person(ada)).awaitingReply).to.equal(false);
      const bobItems = (await person(bob)).items;
      expect(bobItems.map((i: { role: string }) => i.role)).to.deep.equal(['plus-one']);
    });
  });

  describe('When the item closes', () => {
    for (const status of ['shipped', 'declined'] as const) {
      it(`stops waiting once the item is ${status}`, async () => {
        const { itemKey, personId } = await world.submit({ email: `${status}@x.io`, name: 'Di' });
        await world.setStatus(itemKey, 'planned');
        expect((await person(personId)).awaitingReply).to.equal(true);
        await world.setStatus(itemKey, status);
        expect((await person(personId)).awaitingReply).to.equal(false);
        expect((await person(personId)).openItemCount).to.equal(0);
        expect(ids((await followup()).repliesOwed)).not.to.include(itemKey);
      });
    }
  });

  describe('When repliesOwed and awaitingReply are compared', () => {
    it('lists exactly the items on which some person is awaiting a reply', async () => {
      const body = await followup();
      const owed = new Set(ids(body.repliesOwed));
      const people = await world.api().get(`/v1/workspaces/${world.slug}/people?pageSize=200`);
      const waiting = [];
      for (const p of people.body.items) {
        const record = await person(p.id);
        if (record.awaitingReply) {
          waiting.push(p.id);
          // the thread they wait on is one the follow-up lists
          expect(record.items.some((i: { id: string }) => owed.has(i.id))).to.equal(true);
        }
      }
      // each owed item has exactly one person speaking last; each waiting person is that person
      expect(waiting.length).to.be.greaterThan(0);
      expect(owed.size).to.equal(waiting.length);
    });
  });

  describe('When promises age', () => {
    it('lists planned and in-progress items older than STALE_PROMISE_DAYS, not newer ones', async () => {
      const { itemKey: planned } = await world.submit({ email: 'p1@x.io', body: 'Export to CSV' });
      const { itemKey: doing } = await world.submit({ email: 'p2@x.io', body: 'Faster sync' });
      const { itemKey: fresh } = await world.submit({ email: 'p3@x.io', body: 'Calendar view' });
      await world.setStatus(planned, 'planned');
      await world.setStatus(doing, 'in-progress');
      world.advance(30 * DAY_MS);
      await world.setStatus(fresh, 'planned');
      // exactly 30 days: not "longer than" yet
      expect(ids((await followup()).stalePromises)).not.to.include.members([planned]);
      world.advance(1);
      const stale = ids((await followup()).stalePromises);
      expect(stale).to.include.members([planned, doing]);
      expect(stale).not.to.include(fresh);
      // a status change restarts the clock
      await world.setStatus(doing, 'planned');
      expect(ids((await followup()).stalePromises)).not.to.include(doing);
    });
  });

  describe('When an item ships', () => {
    it('stays in shippedUnnotified until its people are notified, and returns when it ships again', async () => {
      const { itemKey } = await world.submit({ email: 'ship@x.io', name: 'Sol' });
      await world.setStatus(itemKey, 'shipped');
      const entry = (await followup()).shippedUnnotified.find((e) => e.id === itemKey);
      expect(entry).to.deep.equal({
        id: itemKey,
        productId: 'ACME',
        title: 'Please add dark mode',
        status: 'shipped',
        statusChangedAt: world.now(),
        plusOneCount: 0,
      });
      world.advance(1000);
      const notify = await world
        .api()
        .post(`/v1/workspaces/${world.slug}/products/ACME/items/${itemKey}/notify`, {
          confirm: true,
        });
      expect(notify.status).to.equal(200);
      expect(ids((await followup()).shippedUnnotified)).not.to.include(itemKey);

      world.advance(1000);
      await world.setStatus(itemKey, 'in-progress');
      world.advance(1000);
      await world.setStatus(itemKey, 'shipped');
      expect(ids((await followup()).shippedUnnotified)).to.include(itemKey);
    });
  });

  describe('When an item ships again in the millisecond it was announced', () => {
    it('is in shippedUnnotified again: event order says the shipping came after', async () => {
      // README: "shipping again after a notification counts anew". Times cannot tell here: the
      // same millisecond, or a clock set back, which stamps events with their predecessor's time
      const { itemKey } = await world.submit({ email: 'same-ms@x.io', name: 'Mo' });
      await world.setStatus(itemKey, 'shipped');
      world.advance(1000);
      const notify = await world
        .api()
        .post(`/v1/workspaces/${world.slug}/products/ACME/items/${itemKey}/notify`, {
          confirm: true,
        });
      expect(notify.status).to.equal(200);
      expect(ids((await followup()).shippedUnnotified)).not.to.include(itemKey);
      await world.setStatus(itemKey, 'in-progress');
      await world.setStatus(itemKey, 'shipped');
      expect(ids((await followup()).shippedUnnotified)).to.include(itemKey);
    });
  });

  describe('When items wait equally long', () => {
    it('lists them by item number, TIE-2 before TIE-11, not by their keys as text', async () => {
      // who_needs_followup: "ties by item key" meant "TIE-11" < "TIE-2" as text; list_items
      // orders one product's items by number
      await world.createProduct('TIE');
      for (let n = 1; n <= 12; n++) {
        await world.submit({ product: 'TIE', anonymousId: `tie-${n}`, body: `Tie number ${n}` });
      }
      await world.setStatus('TIE-11', 'shipped');
      await world.setStatus('TIE-2', 'shipped');
      const lists = await followup();
      const ties = (entries: { id: string }[]) =>
        ids(entries).filter((id) => id.startsWith('TIE-'));
      expect(ties(lists.shippedUnnotified)).to.deep.equal(['TIE-2', 'TIE-11']);
      expect(ties(lists.repliesOwed)).to.deep.equal(
        [1, 3, 4, 5, 6, 7, 8, 9, 10, 12].map((n) => `TIE-${n}`),
      );
    });

    it("lists a person's items filed at one moment newest first by number, TIES-11 before TIES-2", async () => {
      // get_person's items: newest first; ties were broken by their keys as text (TIES-2 first)
      await world.createProduct('TIES');
      let personId = '';
      for (let n = 1; n <= 11; n++) {
        ({ personId } = await world.submit({
          product: 'TIES',
          email: 'ties@x.io',
          body: `Tie two number ${n}`,
        }));
      }
      const listed = ids((await person(personId)).items);
      expect(listed).to.deep.equal([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((n) => `TIES-${n}`));
    });
  });

  describe('When the caller is not a member', () => {
    it('answers 404 for follow-up and people alike', async () => {
      const res = await world.api(OUTSIDER).get(`/v1/workspaces/${world.slug}/followup`);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ error: 'workspace not found', code: 'not-found' });
      const people = await world.api(OUTSIDER).get(`/v1/workspaces/${world.slug}/people`);
      expect(people.status).to.equal(404);
    });
    it('answers 401 without a credential', async () => {
      const res = await fetch(`${world.url}/v1/workspaces/${world.slug}/followup`);
      expect(res.status).to.equal(401);
    });
  });

  describe('When a person is unknown', () => {
    it('answers 404', async () => {
      const res = await world.api().get(`/v1/workspaces/${world.slug}/people/p-nobody`);
      expect(res.status).to.equal(404);
      expect(res.body.code).to.equal('not-found');
    });
  });
});
