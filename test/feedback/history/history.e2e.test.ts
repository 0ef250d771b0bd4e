/**
 * get_item_history and get_item_as_of over real HTTP (issue 15, "Must show"):
 *  - "the history of an item after capture, edits, status changes, tags, replies (maker, agent
 *    via OAuth, person), a merge into it and a notify lists every change in order with the right
 *    actor and `via`";
 *  - "`as-of` at every revision equals what `get_item` answered at that moment";
 *  - "`at` between two revisions answers the earlier"; "404 before the item existed";
 *  - "History, as-of and audit follow the same visibility and membership rules as `get_item`".
 */
import { expect } from 'chai';
import { expect400, expect404 } from '../triage/board.js';
import { itemPath, SLUG, STEP_MS, type Story, tellStory } from './story.js';

describe('Item history and as-of (e2e)', () => {
  let story: Story;
  before(async function () {
    this.timeout(120_000);
    story = await tellStory();
  });
  after(() => story.fb.stop());
  const owner = () => story.fb.api(story.owner.token);

  describe('When the whole history of an item is read', () => {
    it('lists every change in order with its actor, via and revision', async () => {
      const res = await owner().get(`${itemPath('APP-1')}/history`);
      expect(res.status).to.equal(200);
      const { items, nextCursor } = res.body;
      expect(nextCursor).to.equal(null);
      expect(items.map((c: { revision: number }) => c.revision)).to.deep.equal(
        story.expected.map((_, r) => r),
      );
      expect(
        items.map((c: { type: string; actor: { kind: string }; via?: string }) => ({
          type: c.type,
          kind: c.actor.kind,
          ...(c.via ? { via: c.via } : {}),
        })),
      ).to.deep.equal(story.expected);
      const positions = items.map((c: { position: string }) => BigInt(c.position));
      expect(positions).to.deep.equal([...positions].sort((a, b) => (a < b ? -1 : 1)));
    });

    it('names the actors and says what happened in one sentence each', async () => {
      const { items } = (await owner().get(`${itemPath('APP-1')}/history`)).body;
      const byRevision = (r: number) => items[r];
      expect(byRevision(2).summary).to.equal('max changed the status from new to planned');
      expect(byRevision(2).changes.status).to.deep.equal({ from: 'new', to: 'planned' });
      expect(byRevision(1).summary).to.equal(
        'max changed the title from “Dark mode” to “Dark mode for the board”',
      );
      expect(byRevision(3).changes.tagIds).to.deep.equal({ from: [], to: ['ux', 'mobile'] });
      expect(byRevision(5).actor).to.deep.equal({
        kind: 'agent',
        id: story.owner.userId,
        name: 'Claude',
        actingFor: { kind: 'maker', id: story.owner.userId, name: 'max' },
      });
      expect(byRevision(6).actor).to.deep.equal({ kind: 'person', id: story.ann, name: 'Ann' });
      expect(byRevision(6).changes.replyCount).to.deep.equal({ from: 2, to: 3 });
      // the merge folded Bo and Cy into the survivor: a change that came from another item
      expect(byRevision(7).summary).to.equal('max merged APP-2 into this item, bringing 2 people');
      expect(byRevision(7).changes.participants).to.deep.equal({ from: 1, to: 3 });
      expect(byRevision(7).changes.plusOneCount).to.deep.equal({ from: 0, to: 2 });
      // Dee's +1 given on the merged item landed here
      expect(byRevision(10).summary).to.equal(
        'Dee gave a +1 on APP-2, which lives on in this item',
      );
      expect(byRevision(10).changes.plusOneCount).to.deep.equal({ from: 2, to: 3 });
      for (const change of items) {
        expect(change).to.include.keys('correlationId', 'occurredAt', 'itemKey');
        expect(change.itemKey).to.equal('APP-1');
      }
    });

    it('pages with an opaque cursor and refuses an edited one', async () => {
      const first = await owner().get(`${itemPath('APP-1')}/history?pageSize=4`);
      expect(first.body.items).to.have.length(4);
      const second = await owner().get(
        `${itemPath('APP-1')}/history?pageSize=4&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      );
      expect(second.body.items[0].revision).to.equal(4);
      expect400(await owner().get(`${itemPath('APP-1')}/history?cursor=${first.body.nextCursor}x`));
      expect400(await owner().get(`${itemPath('APP-1')}/history?pageSize=201`));
    });
  });

  describe('When the item is read as of each revision', () => {
    it('answers exactly what get_item answered right after that revision', async () => {
      for (const [revision, answer] of story.answers.entries()) {
        const res = await owner().get(`${itemPath('APP-1')}/as-of?revision=${revision}`);
        expect(res.status).to.equal(200);
        const { revision: got, at, ...asOf } = res.body;
        expect(got).to.equal(revision);
        expect(asOf, `revision ${revision}`).to.deep.equal(answer);
        expect(at).to.be.a('number');
      }
    });

    it('answers the earlier revision for a moment between two, and 404 before the item existed', async () => {
      const history = (await owner().get(`${itemPath('APP-1')}/history`)).body.items;
      const between = history[3].occurredAt + STEP_MS / 2;
      const res = await owner().get(`${itemPath('APP-1')}/as-of?at=${between}`);
      expect(res.body.revision).to.equal(3);
      expect(res.body.at).to.equal(history[3].occurredAt);
      const { revision: _r, at: _a, ...asOf } = res.body;
      expect(asOf).to.deep.equal(story.answers[3]);
      expect404(await owner().get(`${itemPath('APP-1')}/as-of?at=${history[0].occurredAt - 1}`));
      // a moment after the last revision answers the last (the OpenAPI text said 404)
      const later = await owner().get(
        `${itemPath('APP-1')}/as-of?at=${history.at(-1).occurredAt + 3_600_000}`,
      );
      expect(later.body.revision).to.equal(history.length - 1);
      expect404(await owner().get(`${itemPath('APP-1')}/as-of?revision=${history.length}`));
      // `at` is in milliseconds: a moment sent in seconds gets a 404 that says so
      const inSeconds = Math.floor(history[0].occurredAt / 1000);
      const early = await owner().get(`${itemPath('APP-1')}/as-of?at=${inSeconds}`);
      expect404(early);
      expect(early.body.error).to.contain('milliseconds');
      // …but 0 is the epoch in any unit (webhooks audit: "0 … this looks like seconds")
      const epoch = await owner().get(`${itemPath('APP-1')}/as-of?at=0`);
      expect404(epoch);
      expect(epoch.body.error).to.not.contain('seconds');
    });

    it('says, at the createdAt an import gave an item, that as-of starts at its recording', async () => {
      // README: history and as-of follow the time each change was recorded; an import keeps the
      // item's original createdAt, which lies before its first revision
      const createdAt = story.fb.clock.now() - 30 * 86_400_000;
      const { itemKey } = await story.fb.submit(story.ws, 'APP', {
        body: 'Imported from the old tracker',
        createdAt,
      });
      const [capture] = (await owner().get(`${itemPath(itemKey)}/history`)).body.items;
      const before = await owner().get(`${itemPath(itemKey)}/as-of?at=${createdAt}`);
      expect404(before);
      expect(before.body.error).to.equal(
        `${itemKey} did not exist yet at ${createdAt}: it was recorded at ${capture.occurredAt}; ` +
          `its createdAt, ${createdAt}, came with an import, and history and as-of start when it was recorded`,
      );
      const recorded = await owner().get(`${itemPath(itemKey)}/as-of?at=${capture.occurredAt}`);
      expect(recorded.status).to.equal(200);
      expect(recorded.body.item.createdAt).to.equal(createdAt);
    });

    it('needs exactly one of revision and at', async () => {
      expect400(await owner().get(`${itemPath('APP-1')}/as-of`));
      expect400(await owner().get(`${itemPath('APP-1')}/as-of?revision=1&at=5`));
      expect400(await owner().get(`${itemPath('APP-1')}/as-of?revision=-1`));
    });
  });

  describe('When someone outside the workspace or the product asks', () => {
    it('answers the same 404 as get_item', async () => {
      const outsider = story.fb.api(story.outsider.token);
      const fromGetItem = await outsider.get(itemPath('APP-1'));
      expect404(fromGetItem);
      for (const path of [
        `${itemPath('APP-1')}/history`,
        `${itemPath('APP-1')}/as-of?revision=0`,
      ]) {
        const res = await outsider.get(path);
        expect(res.body).to.deep.equal(fromGetItem.body);
        const unknown = await owner().get(path.replace(SLUG, 'nowhere-co'));
        expect(unknown.body).to.deep.equal(fromGetItem.body);
      }
      expect404(await owner().get(`/v1/workspaces/${SLUG}/products/SEC/items/APP-1/history`));
      expect404(await owner().get(`${itemPath('APP-99')}/history`));
      // a member (not admin) reads history like get_item
      expect(
        (await story.fb.api(story.member.token).get(`${itemPath('APP-1')}/history`)).status,
      ).to.equal(200);
    });
  });

  describe('When a summary quotes a text cut in the middle of an emoji', () => {
    it('cuts between characters, never leaving half of a surrogate pair', async () => {
      // webhooks audit: "…😀😀\ud83d…" in get_item_history and list_audit_events, which strict
      // JSON parsers refuse for the whole page
      const api = owner();
      const captured = await api.post(`/v1/public/${SLUG}/APP/feedback`, { body: 'Emoji story' });
      const key = captured.body.itemId as string;
      expect((await api.patch(itemPath(key), { title: '😀'.repeat(100) })).status).to.equal(200);
      expect(
        (await api.post(`${itemPath(key)}/replies`, { body: '😀'.repeat(40) })).status,
      ).to.equal(200);
      const history = await api.get(`${itemPath(key)}/history`);
      const audit = await api.get(`/v1/workspaces/${SLUG}/audit?type=ItemReplied`);
      const summaries = [
        ...history.body.items.map((c: { summary: string }) => c.summary),
        ...audit.body.items.map((c: { summary: string }) => c.summary),
      ];
      for (const summary of summaries) {
        expect(summary.isWellFormed(), summary).to.equal(true);
      }
      expect(summaries.join('\n')).to.include('😀…');
    });
  });
});
