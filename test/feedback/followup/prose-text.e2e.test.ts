/**
 * Text a maker writes for people to read through the close-the-loop operations is held to the
 * rule for prose (README "Text": "a body or reply may hold line breaks and tabs but no other
 * control character ... Refusals are 400 with the field named").
 */
import { expect } from 'chai';
import { startWorld, type World } from './support/world.js';

describe('Close-the-loop text with control characters', () => {
  let world: World;
  let itemPath: string;
  before(async () => {
    world = await startWorld();
    const { itemKey } = await world.submit({ email: 'ann@x.io', name: 'Ann' });
    await world.setStatus(itemKey, 'shipped');
    itemPath = `/v1/workspaces/${world.slug}/products/ACME/items/${itemKey}`;
  });
  after(() => world.stop());

  describe('When notify_people is sent a message holding a NUL or an escape sequence', () => {
    it('refuses it with 400 naming the message and records nothing', async () => {
      // the message is recorded on the PeopleNotified event and sent to webhook receivers
      // (item.notified); it was kept with the NUL, which publishing a changelog body refuses
      for (const message of ['shipped\u0000!', 'now \u001b[31mred\u001b[0m']) {
        const res = await world.api().post(`${itemPath}/notify`, { confirm: true, message });
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body).to.deep.equal({
          error: 'message must not contain control characters other than line breaks and tabs',
          code: 'invalid-argument',
        });
      }
      expect(await world.countEvents('PeopleNotified')).to.equal(0);
      const ok = await world
        .api()
        .post(`${itemPath}/notify`, { confirm: true, message: 'It shipped.\n\n\tThanks!' });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      expect(ok.body.notified).to.equal(1);
    });
  });

  describe('When draft_changelog_entry is given a body holding a NUL, without publish', () => {
    it('refuses it with 400 as publishing that body does, instead of drafting it as fine', async () => {
      // CHANGELOG_RULES: "`title` and `body` replace the drafted ones"; the draft is what a
      // client reviews before it publishes, so it must not accept what the publish refuses
      const body = 'Dark mode is here\u0000';
      const draft = await world.api().post(`${itemPath}/changelog`, { body });
      const publish = await world.api().post(`${itemPath}/changelog`, { body, publish: true });
      const refusal = {
        error: 'body must not contain control characters other than line breaks and tabs',
        code: 'invalid-argument',
      };
      expect(publish.status).to.equal(400);
      expect(publish.body).to.deep.equal(refusal);
      expect(draft.status, JSON.stringify(draft.body)).to.equal(400);
      expect(draft.body).to.deep.equal(refusal);
      const prose = await world.api().post(`${itemPath}/changelog`, { body: 'Line one\n\tTwo' });
      expect(prose.status).to.equal(200);
      expect(prose.body.body).to.equal('Line one\n\tTwo');
    });
  });

  describe('When draft_changelog_entry is given a body of only spaces or invisible characters', () => {
    it('refuses it with 400 for a draft as on publish, and publishes nothing', async () => {
      // README "Text": "a body or reply may hold line breaks and tabs but no other control
      // character, and must show something too"; a published entry with a body of only spaces
      // or U+200B showed readers a title with nothing under it
      const refusal = { error: 'body must contain a visible character', code: 'invalid-argument' };
      const before = await world.countEvents('ChangelogEntryPublished');
      for (const body of ['   ', ' \n\t ', '\u200b\u200c\u200d', ' \u2060\ufeff\u00ad ']) {
        for (const publish of [false, true]) {
          const res = await world.api().post(`${itemPath}/changelog`, { body, publish });
          expect(res.status, `${JSON.stringify(body)} publish ${publish}`).to.equal(400);
          expect(res.body).to.deep.equal(refusal);
        }
      }
      expect(await world.countEvents('ChangelogEntryPublished')).to.equal(before);
      // the title is held to the same: a title of only invisible characters is refused too
      const title = await world.api().post(`${itemPath}/changelog`, { title: '\u200b\u2060' });
      expect(title.status).to.equal(400);
      expect(title.body).to.deep.equal({
        error: 'title must contain a visible character',
        code: 'invalid-argument',
      });
      const shown = await world.api().post(`${itemPath}/changelog`, { body: ' Dark mode \u200b' });
      expect(shown.status, JSON.stringify(shown.body)).to.equal(200);
      // spec: "changelog `body` | 0 to 50000 chars" — an empty body is an entry's title alone
      const empty = await world.api().post(`${itemPath}/changelog`, { body: '', publish: true });
      expect(empty.status, JSON.stringify(empty.body)).to.equal(200);
      expect(empty.body.body).to.equal('');
    });
  });

  describe('When an entry already published is revised with a body of only spaces', () => {
    it('refuses the revision and keeps the published body', async () => {
      const first = await world
        .api()
        .post(`${itemPath}/changelog`, { body: 'Dark mode is here.', publish: true });
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      const revisions = await world.countEvents('ChangelogEntryRevised');
      const revised = await world
        .api()
        .post(`${itemPath}/changelog`, { body: '\u200b \u200b', publish: true });
      expect(revised.status).to.equal(400);
      expect(revised.body).to.deep.equal({
        error: 'body must contain a visible character',
        code: 'invalid-argument',
      });
      expect(await world.countEvents('ChangelogEntryRevised')).to.equal(revisions);
    });
  });
});
