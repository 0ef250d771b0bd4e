import { expect } from 'chai';
import { listChangelog } from '../../../projections/changelog/index.js';
import { registerPerson, startWorld, type World } from './support/world.js';

describe('draft_changelog_entry over HTTP', () => {
  let world: World;
  before(async () => {
    world = await startWorld();
  });
  after(() => world.stop());

  const path = (itemKey: string) =>
    `/v1/workspaces/${world.slug}/products/ACME/items/${itemKey}/changelog`;
  const entries = () =>
    listChangelog(world.readStore, { workspaceId: world.workspaceId, productKey: 'ACME' });

  async function shippedWithDuplicate() {
    const { itemKey } = await world.submit({
      email: 'ada@x.io',
      name: 'Ada',
      title: 'Dark mode',
      body: 'A dark theme for night use.',
    });
    const { itemKey: dup } = await world.submit({
      email: 'bob@x.io',
      name: 'Bob',
      title: 'Night theme',
      body: 'Too bright at night.',
    });
    const anon = await registerPerson(world, { anonymousId: `anon-${itemKey}` });
    await world.plusOne(itemKey, anon);
    await world.merge(itemKey, [dup]);
    await world.setStatus(itemKey, 'shipped');
    return { itemKey, dup };
  }

  describe('When drafting without publish', () => {
    it('derives headline, body and acknowledgment from the item and its merged items, and writes nothing', async () => {
      // spec rule 3: "writes the public entry only when publish is true"
      const { itemKey, dup } = await shippedWithDuplicate();
      const before = await world.countEvents('ChangelogEntryPublished');
      const res = await world.api().post(path(itemKey), {});
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        title: 'Dark mode',
        body: `A dark theme for night use.\n\nAlso answers: Night theme (${dup}).\n\nRequested by Ada, Bob and 1 other.`,
        itemIds: [itemKey, dup],
        requestedByNames: ['Ada', 'Bob'],
        requestedByCount: 3,
        publishedId: null,
      });
      expect(await world.countEvents('ChangelogEntryPublished')).to.equal(before);
      expect(await entries()).to.deep.equal([]);
      const noBody = await world.api().post(path(itemKey));
      expect(noBody.status).to.equal(200);
      expect(noBody.body.publishedId).to.equal(null);
    });
  });

  describe('When publishing', () => {
    it('writes one public entry with the overrides, and a same-text repeat changes nothing', async () => {
      const { itemKey, dup } = await shippedWithDuplicate();
      const res = await world.api().post(path(itemKey), {
        publish: true,
        title: 'Dark mode is here',
        body: 'Switch it on in Settings.',
      });
      expect(res.status).to.equal(200);
      expect(res.body.publishedId).to.equal(`chg-${itemKey}`);
      expect(res.body.title).to.equal('Dark mode is here');
      expect(res.body.body).to.equal('Switch it on in Settings.');
      const published = await entries();
      expect(published).to.have.length(1);
      expect(published[0]).to.include({
        id: `chg-${itemKey}`,
        title: 'Dark mode is here',
        requestedByCount: 3,
      });
      expect(published[0]!.itemIds).to.deep.equal([itemKey, dup]);

      const events = await world.countEvents('ChangelogEntryPublished');
      const again = await world.api().post(path(itemKey), {
        publish: true,
        title: 'Dark mode is here',
        body: 'Switch it on in Settings.',
      });
      expect(again.body.publishedId).to.equal(`chg-${itemKey}`);
      expect(await world.countEvents('ChangelogEntryPublished')).to.equal(events);
      expect(await world.countEvents('ChangelogEntryRevised')).to.equal(0);

      await world.api().post(path(itemKey), { publish: true, title: 'Dark mode, finally' });
      expect(await world.countEvents('ChangelogEntryRevised')).to.equal(1);
      expect((await entries())[0]!.title).to.equal('Dark mode, finally');
    });
  });

  describe('When the item is not shipped or was merged', () => {
    it('answers 400 invalid-argument and writes nothing', async () => {
      const { itemKey } = await world.submit({ email: 'cy@x.io', name: 'Cy' });
      const res = await world.api().post(path(itemKey), { publish: true });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('invalid-argument');
      // it names this operation's reason, not notify_people's ("its requesters are told")
      expect(res.body.error).to.equal(
        `item must be shipped before a changelog entry is drafted for it: ${itemKey} is new`,
      );
      const { dup } = await shippedWithDuplicate();
      const merged = await world.api().post(path(dup), { publish: true });
      expect(merged.status).to.equal(400);
      expect(merged.body.error).to.match(/merged into/);
    });
  });

  describe('When the title is out of bounds', () => {
    it('answers 400', async () => {
      const { itemKey } = await shippedWithDuplicate();
      for (const body of [
        { title: '' },
        { title: 'x'.repeat(501) },
        { body: 'x'.repeat(50_001) },
        { publish: 'yes' },
      ]) {
        const res = await world.api().post(path(itemKey), body);
        expect(res.status, JSON.stringify(body).slice(0, 40)).to.equal(400);
      }
    });
  });

  describe('When the title is only spaces', () => {
    // Limits: "item `title` (update_item, changelog) 1 to 500 chars", counted after trimming as
    // update_item counts it; it was swapped for the item's title without a word
    it('answers 400 and publishes nothing; a title with spaces around it is trimmed', async () => {
      const { itemKey } = await shippedWithDuplicate();
      const before = await world.countEvents('ChangelogEntryPublished');
      const blank = await world.api().post(path(itemKey), { title: '   ', publish: true });
      expect(blank.status).to.equal(400);
      expect(blank.body).to.deep.equal({ error: 'title is required', code: 'invalid-argument' });
      expect(await world.countEvents('ChangelogEntryPublished')).to.equal(before);
      const padded = await world.api().post(path(itemKey), { title: '  Dark mode  ' });
      expect(padded.body.title).to.equal('Dark mode');
    });
  });

  describe('When a named person only gave a +1', () => {
    // The board shows who filed an item and who replied, never who gave a +1 (only the count);
    // the public entry must not name voters either (privacy audit: "Requested by … Quiet Voter").
    it('counts them in the acknowledgment without naming them', async () => {
      const { itemKey } = await world.submit({ email: 'dee@x.io', name: 'Dee', title: 'Export' });
      const voter = await registerPerson(world, { email: 'quiet@x.io', name: 'Quiet Voter' });
      await world.plusOne(itemKey, voter);
      await world.setStatus(itemKey, 'shipped');
      const res = await world.api().post(path(itemKey), { publish: true });
      expect(res.status).to.equal(200);
      expect(res.body.requestedByNames).to.deep.equal(['Dee']);
      expect(res.body.requestedByCount).to.equal(2);
      expect(res.body.body).to.match(/Requested by Dee and 1 other\.$/);
      const entry = (await entries()).find((e) => e.id === `chg-${itemKey}`);
      expect(entry?.requestedByNames).to.deep.equal(['Dee']);
      expect(JSON.stringify(entry)).not.to.include('Quiet Voter');
    });
  });

  describe('When a merged item the entry answers is given back after publication', () => {
    // unmerge_items "undoes merges exactly": the people who came only through the item given
    // back are no longer counted, a name shown only for filing on it is no longer named (one who
    // also gave the item a +1 stays counted), and the drafted "Requested by" line says so
    it('takes back its people and names, and gives them back with a new merge', async () => {
      const { itemKey, dup } = await shippedWithDuplicate();
      const { itemKey: other, personId: cy } = await world.submit({
        email: 'cy@x.io',
        name: 'Cy',
        title: 'Darker greys',
      });
      await world.plusOne(itemKey, cy);
      await world.merge(itemKey, [other]);
      const res = await world.api().post(path(itemKey), { publish: true });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const entry = async () => (await entries()).find((e) => e.id === `chg-${itemKey}`);
      const published = await entry();
      expect(published).to.deep.include({
        requestedByNames: ['Ada', 'Bob', 'Cy'],
        requestedByCount: 4,
      });
      expect(published!.body).to.match(/\n\nRequested by Ada, Bob, Cy and 1 other\.$/);

      await world.unmerge(itemKey, [dup]);
      const withoutBob = await entry();
      expect(withoutBob).to.deep.include({
        itemIds: [itemKey, other],
        requestedByNames: ['Ada', 'Cy'],
        requestedByCount: 3,
      });
      expect(withoutBob!.body).to.match(/\n\nRequested by Ada, Cy and 1 other\.$/);

      await world.unmerge(itemKey, [other]);
      const withoutBoth = await entry();
      expect(withoutBoth, 'Cy stays: a +1 of the item, counted, not named').to.deep.include({
        itemIds: [itemKey],
        requestedByNames: ['Ada'],
        requestedByCount: 3,
      });
      expect(withoutBoth!.body).to.equal(
        'A dark theme for night use.\n\nRequested by Ada and 2 others.',
      );

      await world.merge(itemKey, [dup, other]);
      expect(await entry()).to.deep.equal(published);
    });
  });
});
