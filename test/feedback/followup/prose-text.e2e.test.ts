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
});
