/**
 * notify_people after merge_items, over HTTP. Notification is recorded per item and the spec is
 * silent on merges ("the survivor keeps the +1s and the people"); what a maker expects is that
 * each person is told once: a duplicate's people its own notification told are not told again on
 * the survivor, and people nobody told show in who_needs_followup until they are.
 */
import { expect } from 'chai';
import { registerPerson, startWorld, type World } from './support/world.js';

describe('notify_people after a merge, over HTTP', () => {
  let world: World;
  before(async () => {
    world = await startWorld();
  });
  after(() => world.stop());

  const notifyPath = (itemKey: string) =>
    `/v1/workspaces/${world.slug}/products/ACME/items/${itemKey}/notify`;
  const notify = (itemKey: string) => world.api().post(notifyPath(itemKey), { confirm: true });
  const shippedUnnotified = async (): Promise<string[]> => {
    const res = await world.api().get(`/v1/workspaces/${world.slug}/followup`);
    return res.body.shippedUnnotified.map((e: { id: string }) => e.id);
  };
  const told = (body: { recipients: { personId: string; delivered: boolean }[] }) =>
    body.recipients.filter((r) => r.delivered).map((r) => r.personId);

  /** a shipped item filed by one person and +1'd by another, both with verified addresses */
  async function shippedItem(name: string) {
    const { itemKey, personId: submitter } = await world.submit({
      email: `${name}@x.io`,
      name,
      body: `${name} wants dark mode`,
    });
    const voter = await registerPerson(world, { email: `${name}-fan@x.io`, name: `${name} fan` });
    await world.plusOne(itemKey, voter);
    await world.setStatus(itemKey, 'shipped');
    return { itemKey, people: [submitter, voter] };
  }

  describe('When a never-notified shipped duplicate is merged into a notified shipped item', () => {
    it('lists the survivor as shipped-unnotified again, and notify tells exactly the newcomers', async () => {
      const survivor = await shippedItem('ada');
      const duplicate = await shippedItem('bob');
      expect(told((await notify(survivor.itemKey)).body)).to.deep.equal(survivor.people);
      expect(await shippedUnnotified()).not.to.include(survivor.itemKey);

      await world.merge(survivor.itemKey, [duplicate.itemKey]);
      expect(await shippedUnnotified()).to.include(survivor.itemKey);

      const res = await notify(survivor.itemKey);
      expect(res.status).to.equal(200);
      expect(told(res.body)).to.deep.equal(duplicate.people);
      expect(res.body.skipped).to.equal(2);
      expect(await shippedUnnotified()).not.to.include(survivor.itemKey);
    });
  });

  describe('When a notified shipped duplicate is merged into a never-notified shipped item', () => {
    it("tells the survivor's own people and skips the duplicate's as already notified", async () => {
      const survivor = await shippedItem('cy');
      const duplicate = await shippedItem('dee');
      expect(told((await notify(duplicate.itemKey)).body)).to.deep.equal(duplicate.people);

      await world.merge(survivor.itemKey, [duplicate.itemKey]);
      expect(await shippedUnnotified()).to.include(survivor.itemKey);

      const res = await notify(survivor.itemKey);
      expect(told(res.body)).to.deep.equal(survivor.people);
      expect(
        res.body.recipients
          .filter((r: { personId: string }) => duplicate.people.includes(r.personId))
          .map((r: { reason?: string }) => r.reason),
      ).to.deep.equal(['already-notified', 'already-notified']);
      expect(await shippedUnnotified()).not.to.include(survivor.itemKey);
    });
  });
});
