import { expect } from 'chai';
import { registerPerson, startWorld, type World } from './support/world.js';

describe('notify_people over HTTP', () => {
  let world: World;
  before(async () => {
    world = await startWorld();
  });
  after(() => world.stop());

  const notifyPath = (itemKey: string) =>
    `/v1/workspaces/${world.slug}/products/ACME/items/${itemKey}/notify`;

  async function shippedItemWithPeople() {
    const { itemKey, personId: ada } = await world.submit({ email: 'ada@x.io', name: 'Ada' });
    const bob = await registerPerson(world, { email: 'bob@x.io', name: 'Bob' });
    const anon = await registerPerson(world, { anonymousId: `visitor-${itemKey}` });
    const cy = await registerPerson(world, { email: 'cy@x.io', name: 'Cy' });
    await world.plusOne(itemKey, bob);
    await world.plusOne(itemKey, anon);
    await world.reply(itemKey, 'person', cy, 'Would love this');
    await world.setStatus(itemKey, 'shipped');
    return { itemKey, ada, bob, anon, cy };
  }

  describe('When confirm is not exactly true', () => {
    // spec rule 1: "notify_people without confirm equal to true answers 400 and sends nothing"
    const refusals: [string, unknown][] = [
      ['missing', {}],
      ['false', { confirm: false }],
      ['the string "true"', { confirm: 'true' }],
      ['1', { confirm: 1 }],
    ];
    for (const [label, body] of refusals) {
      it(`answers 400 invalid-argument and appends nothing when confirm is ${label}`, async () => {
        const { itemKey } = await shippedItemWithPeople();
        const before = await world.countEvents('PeopleNotified');
        const res = await world.api().post(notifyPath(itemKey), body);
        expect(res.status).to.equal(400);
        expect(res.body.code).to.equal('invalid-argument');
        // the one value it takes, named as such (not "one of: true"), also when it is missing
        expect(res.body.error).to.equal('confirm must be true');
        expect(Object.keys(res.body).sort()).to.deep.equal(['code', 'error']);
        expect(await world.countEvents('PeopleNotified')).to.equal(before);
        const item = await world.readStore.collection('items').findOne({ id: itemKey });
        expect(item?.notifiedAt).to.equal(null);
      });
    }
  });

  describe('When confirmed on a shipped item', () => {
    it('records who should hear, sets notifiedAt, and skips whoever cannot be reached', async () => {
      const { itemKey, ada, bob, anon, cy } = await shippedItemWithPeople();
      world.advance(5000);
      const before = await world.countEvents('PeopleNotified');
      const res = await world
        .api()
        .post(notifyPath(itemKey), { confirm: true, message: 'It shipped!' });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        notified: 3,
        skipped: 1,
        recipients: [
          { personId: ada, displayName: 'Ada', delivered: true },
          { personId: bob, displayName: 'Bob', delivered: true },
          { personId: anon, displayName: null, delivered: false, reason: 'anonymous' },
          { personId: cy, displayName: 'Cy', delivered: true },
        ],
      });
      expect(await world.countEvents('PeopleNotified')).to.equal(before + 1);
      const [event] = (
        await world.events.readAll({ filter: { eventTypes: ['PeopleNotified'] } })
      ).slice(-1);
      expect((event!.data as { message?: string }).message).to.equal('It shipped!');
      const item = await world.api().get(`/v1/workspaces/${world.slug}/followup`);
      expect(item.body.shippedUnnotified.map((e: { id: string }) => e.id)).not.to.include(itemKey);
      const doc = await world.readStore.collection('items').findOne({ id: itemKey });
      expect(doc?.notifiedAt).to.equal(world.now());
      // every change of an item's fields moves its updatedAt (a client syncing by it sees this)
      expect(doc?.updatedAt).to.equal(world.now());
    });
  });

  describe('When the call is repeated', () => {
    it('counts nobody twice and appends nothing new', async () => {
      const { itemKey } = await shippedItemWithPeople();
      const first = await world.api().post(notifyPath(itemKey), { confirm: true });
      expect(first.body.notified).to.equal(3);
      const after = await world.countEvents('PeopleNotified');
      const again = await world.api().post(notifyPath(itemKey), { confirm: true });
      expect(again.status).to.equal(200);
      expect(again.body.notified).to.equal(0);
      expect(again.body.skipped).to.equal(4);
      expect(again.body.recipients.map((r: { reason?: string }) => r.reason)).to.deep.equal([
        'already-notified',
        'already-notified',
        'anonymous',
        'already-notified',
      ]);
      expect(await world.countEvents('PeopleNotified')).to.equal(after);
    });

    it('tells only the newcomers when people joined since', async () => {
      const { itemKey } = await shippedItemWithPeople();
      await world.api().post(notifyPath(itemKey), { confirm: true });
      const dee = await registerPerson(world, { email: 'dee@x.io', name: 'Dee' });
      await world.plusOne(itemKey, dee);
      const again = await world.api().post(notifyPath(itemKey), { confirm: true });
      expect(again.body.notified).to.equal(1);
      expect(
        again.body.recipients.filter((r: { delivered: boolean }) => r.delivered),
      ).to.deep.equal([{ personId: dee, displayName: 'Dee', delivered: true }]);
    });

    it('answers the first result for a retry with the same Idempotency-Key', async () => {
      const { itemKey } = await shippedItemWithPeople();
      const headers = { 'idempotency-key': `notify-${itemKey}` };
      const first = await world.api().post(notifyPath(itemKey), { confirm: true }, { headers });
      const retry = await world.api().post(notifyPath(itemKey), { confirm: true }, { headers });
      expect(retry.body).to.deep.equal(first.body);
    });
  });

  describe('When the item is not shipped', () => {
    for (const status of ['new', 'planned', 'in-progress', 'declined'] as const) {
      it(`answers 400 invalid-argument and records nothing when it is ${status}`, async () => {
        const { itemKey } = await world.submit({ email: `${status}@x.io`, name: 'Ed' });
        if (status !== 'new') await world.setStatus(itemKey, status);
        const before = await world.countEvents('PeopleNotified');
        const res = await world.api().post(notifyPath(itemKey), { confirm: true });
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal({
          error: `item must be shipped before its requesters are told: ${itemKey} is ${status}`,
          code: 'invalid-argument',
        });
        expect(await world.countEvents('PeopleNotified')).to.equal(before);
      });
    }
  });

  describe('When the item does not exist', () => {
    it('answers 404', async () => {
      const res = await world.api().post(notifyPath('ACME-999'), { confirm: true });
      expect(res.status).to.equal(404);
      expect(res.body.code).to.equal('not-found');
    });
  });

  describe('When the message is only spaces', () => {
    // "message (string, at most 2000 chars, optional)": a message that says nothing is none
    it('records the notification without a message', async () => {
      const { itemKey } = await shippedItemWithPeople();
      const res = await world.api().post(notifyPath(itemKey), { confirm: true, message: '   ' });
      expect(res.status).to.equal(200);
      const [event] = (
        await world.events.readAll({ filter: { eventTypes: ['PeopleNotified'] } })
      ).slice(-1);
      expect(event!.data).not.to.have.property('message');
    });
  });

  describe('When the message is too long', () => {
    it('answers 400', async () => {
      const { itemKey } = await shippedItemWithPeople();
      const res = await world
        .api()
        .post(notifyPath(itemKey), { confirm: true, message: 'x'.repeat(2001) });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('invalid-argument');
    });
  });
});
