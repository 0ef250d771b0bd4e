/**
 * Withdrawing a +1, end to end (issue 12: "One +1 per person per item (toggle); it counts in
 * plusOneCount and makes the visitor a participant"). The item's history reads it as a change
 * like the +1 it undoes (issue 15: every change is listed with a readable summary), as-of
 * answers what get_item answered, and an unmerge gives back only the +1s still standing.
 */
import { expect } from 'chai';
import { FailedPrecondition } from '../../../commands/shared/errors.js';
import {
  addPlusOne,
  registerPerson,
  replyToItem,
  withdrawPlusOne,
} from '../../../src/feedback/actions/index.js';
import type { FeedbackHarness, Maker, Workspace } from '../support/harness.js';
import { startFeedback } from '../support/harness.js';

const SLUG = 'acme-co';
const item = (key: string) => `/v1/workspaces/${SLUG}/products/APP/items/${key}`;
type Participant = { personId: string; role: string };

describe('Withdrawing a +1 (e2e)', () => {
  let fb: FeedbackHarness;
  let owner: Maker;
  let ws: Workspace;
  let ann: string;
  let ana: string;
  let bo: string;
  const api = () => fb.api(owner.token);
  const deps = () => fb.deps();
  const person = async (name: string) =>
    (
      await registerPerson(deps(), fb.context(), {
        workspaceId: ws.workspaceId,
        requester: { email: `${name.toLowerCase()}@customer.io`, displayName: name },
      })
    ).personId;
  const toggle = async (on: boolean, itemKey: string, personId: string) => {
    const act = on ? addPlusOne : withdrawPlusOne;
    const result = await act(deps(), fb.context({ actor: personId }), {
      workspaceId: ws.workspaceId,
      itemKey,
      personId,
    });
    await fb.caughtUp(result.position);
    return result;
  };
  const lastChange = async (itemKey: string) =>
    (await api().get(`${item(itemKey)}/history`)).body.items.at(-1);

  before(async function () {
    this.timeout(60_000);
    fb = await startFeedback();
    owner = await fb.createMaker('max@acme.io');
    ws = await fb.createWorkspace(owner, { slug: SLUG, name: 'Acme' });
    await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
    await fb.submit(ws, 'APP', { body: 'Dark mode', email: 'ann@customer.io', displayName: 'Ann' });
    await fb.submit(ws, 'APP', { body: 'Night theme', email: 'cy@customer.io', displayName: 'Cy' });
    ann = await person('Ann');
    ana = await person('Ana');
    bo = await person('Bo');
  });
  after(() => fb.stop());

  describe('When a person gives a +1 and withdraws it', () => {
    it('counts it, then no longer, and lists the change in the history', async () => {
      expect((await toggle(true, 'APP-1', ana)).changed).to.equal(true);
      expect((await api().get(item('APP-1'))).body.item.plusOneCount).to.equal(1);
      const off = await toggle(false, 'APP-1', ana);
      expect(off).to.include({ itemKey: 'APP-1', changed: true });
      const now = (await api().get(item('APP-1'))).body;
      expect(now.item.plusOneCount).to.equal(0);
      expect(now.participants.map((p: Participant) => p.personId)).not.to.include(ana);
      const change = await lastChange('APP-1');
      expect(change).to.deep.include({
        type: 'PlusOneWithdrawn',
        summary: 'Ana withdrew their +1',
      });
      expect(change.changes.plusOneCount).to.deep.equal({ from: 1, to: 0 });
      // as-of at the withdrawal answers what get_item answers now
      const asOf = await api().get(`${item('APP-1')}/as-of?revision=${change.revision}`);
      const { revision: _r, at: _a, ...answer } = asOf.body;
      expect(answer).to.deep.equal(now);
      const people = await api().get(`/v1/workspaces/${SLUG}/people/${ana}`);
      expect(people.body.items).to.deep.equal([]);
    });

    it('changes nothing when withdrawn again, or by the submitter', async () => {
      const revisions = (await api().get(`${item('APP-1')}/history`)).body.items.length;
      expect((await toggle(false, 'APP-1', ana)).changed).to.equal(false);
      // the submitter's own request is not a +1
      expect((await toggle(false, 'APP-1', ann)).changed).to.equal(false);
      const now = (await api().get(item('APP-1'))).body;
      expect(now.participants[0]).to.deep.include({ personId: ann, role: 'submitted' });
      expect((await api().get(`${item('APP-1')}/history`)).body.items.length).to.equal(revisions);
    });

    it('keeps a person who also replied, as a replier', async () => {
      await toggle(true, 'APP-1', bo);
      const reply = await replyToItem(deps(), fb.context({ actor: bo }), {
        workspaceId: ws.workspaceId,
        productKey: 'APP',
        itemKey: 'APP-1',
        body: 'Same here',
        author: { kind: 'person', id: bo, name: 'Bo', avatar: null },
      });
      await fb.caughtUp(reply.position);
      await toggle(false, 'APP-1', bo);
      const now = (await api().get(item('APP-1'))).body;
      expect(now.item.plusOneCount).to.equal(0);
      expect(now.participants.find((p: Participant) => p.personId === bo)).to.deep.include({
        role: 'replied',
      });
      const people = await api().get(`/v1/workspaces/${SLUG}/people/${bo}`);
      expect(
        people.body.items.map((i: { id: string; role: string }) => [i.id, i.role]),
      ).to.deep.equal([['APP-1', 'replied']]);
    });
  });

  describe('When the +1 was given on a merged item', () => {
    it('withdraws it from the survivor, and the unmerge does not give it back', async () => {
      expect(
        (await api().post(`${item('APP-1')}/merge`, { mergedKeys: ['APP-2'] })).status,
      ).to.equal(200);
      const given = await toggle(true, 'APP-2', ana);
      expect(given).to.include({ itemKey: 'APP-1', changed: true });
      const counted = (await api().get(item('APP-1'))).body.item.plusOneCount;
      const off = await toggle(false, 'APP-2', ana);
      expect(off).to.include({ itemKey: 'APP-1', changed: true });
      expect((await api().get(item('APP-1'))).body.item.plusOneCount).to.equal(counted - 1);
      expect((await lastChange('APP-1')).summary).to.equal(
        'Ana withdrew the +1 they gave on APP-2, which lives on in this item',
      );
      await api().post(`${item('APP-1')}/unmerge`, { mergedKeys: ['APP-2'] });
      await fb.caughtUp();
      const restored = (await api().get(item('APP-2'))).body;
      expect(restored.item.plusOneCount).to.equal(0);
      expect(restored.participants.map((p: Participant) => p.personId)).not.to.include(ana);
    });

    it('refuses to withdraw a +1 the merged item counts itself until it is unmerged', async () => {
      await toggle(true, 'APP-2', bo); // given while APP-2 stands on its own
      await api().post(`${item('APP-1')}/merge`, { mergedKeys: ['APP-2'] });
      await fb.caughtUp();
      let refused: unknown;
      try {
        await toggle(false, 'APP-2', bo);
      } catch (error) {
        refused = error;
      }
      expect(refused).to.be.instanceOf(FailedPrecondition);
      expect((refused as Error).message).to.match(/merged into APP-1/);
    });
  });
});
