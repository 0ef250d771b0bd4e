/**
 * unmerge_items over real HTTP (issue 15, "Must show"): "Unmerge after merge returns both items
 * to exactly their pre-merge `get_item` answers (except `updatedAt`), people's item lists and
 * counts (`itemCount`, `plusOneCount`, `who_needs_followup`) included; a merge → unmerge → merge
 * again round trip works." And: "Idempotent: repeating an unmerge that already took effect
 * answers 200 with the same result and changes nothing; a key that was never merged into this
 * item answers 400."
 */
import { expect } from 'chai';
import { addPlusOne, registerPerson, replyToItem } from '../../../src/feedback/actions/index.js';
import type { FeedbackHarness, Maker, Workspace } from '../support/harness.js';
import { startFeedback } from '../support/harness.js';
import { expect400, expectError } from '../triage/board.js';

const SLUG = 'acme-co';
const item = (key: string) => `/v1/workspaces/${SLUG}/products/APP/items/${key}`;

/** Everything a maker sees that a merge touches. */
async function view(fb: FeedbackHarness, token: string, people: string[]) {
  const api = fb.api(token);
  const strip = (res: { status: number; body: { item: Record<string, unknown> } }) => {
    if (!res.body.item) throw new Error(JSON.stringify(res.body));
    // the issue allows updatedAt (and, after a merge again, statusChangedAt) to differ; this
    // design never moves statusChangedAt on a merge or unmerge, so only updatedAt is left out
    const { updatedAt: _u, ...rest } = res.body.item;
    return { ...res.body, item: rest };
  };
  const persons: Record<string, unknown> = {};
  for (const id of people) {
    const res = await api.get(`/v1/workspaces/${SLUG}/people/${id}`);
    expect(res.status).to.equal(200);
    persons[id] = res.body;
  }
  const followup = await api.get(`/v1/workspaces/${SLUG}/followup`);
  expect(followup.status).to.equal(200);
  return {
    app1: strip(await api.get(item('APP-1'))),
    app2: strip(await api.get(item('APP-2'))),
    products: (await api.get(`/v1/workspaces/${SLUG}/products`)).body,
    list: (await api.get(`/v1/workspaces/${SLUG}/products/APP/items`)).body.items.map(
      (i: { id: string; plusOneCount: number }) => [i.id, i.plusOneCount],
    ),
    persons,
    followup: followup.body,
  };
}

describe('Unmerging items (e2e)', () => {
  let fb: FeedbackHarness;
  let owner: Maker;
  let ws: Workspace;
  let people: Record<string, string>;
  const api = () => fb.api(owner.token);
  const deps = () => fb.deps();
  const person = async (name: string) =>
    (
      await registerPerson(deps(), fb.context(), {
        workspaceId: ws.workspaceId,
        requester: { email: `${name}@customer.io`, displayName: name },
      })
    ).personId;
  const plusOne = async (itemKey: string, personId: string) => {
    const { position } = await addPlusOne(deps(), fb.context(), {
      workspaceId: ws.workspaceId,
      itemKey,
      personId,
    });
    await fb.caughtUp(position);
  };

  before(async function () {
    this.timeout(60_000);
    fb = await startFeedback();
    owner = await fb.createMaker('max@acme.io');
    ws = await fb.createWorkspace(owner, { slug: SLUG, name: 'Acme' });
    await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
    await fb.submit(ws, 'APP', { body: 'Dark mode', email: 'ann@customer.io', displayName: 'Ann' });
    await fb.submit(ws, 'APP', { body: 'Night theme', email: 'bo@customer.io', displayName: 'Bo' });
    await fb.submit(ws, 'APP', { body: 'Unrelated', email: 'zed@customer.io', displayName: 'Zed' });
    people = {
      ann: await person('ann'),
      bo: await person('bo'),
      cy: await person('cy'),
      dee: await person('dee'),
      eve: await person('eve'),
      fay: await person('fay'),
    };
    await plusOne('APP-1', people.cy!); // Cy +1'd both items
    await plusOne('APP-2', people.cy!);
    await plusOne('APP-2', people.dee!);
    const reply = await replyToItem(deps(), fb.context({ actor: people.eve }), {
      workspaceId: ws.workspaceId,
      productKey: 'APP',
      itemKey: 'APP-2',
      body: 'Same here',
      author: { kind: 'person', id: people.eve!, name: 'Eve', avatar: null },
    });
    await fb.caughtUp(reply.position);
    expect((await api().post(`${item('APP-2')}/status`, { status: 'planned' })).status).to.equal(
      200,
    );
    expect((await api().post(`${item('APP-2')}/tags`, { tagIds: ['ui'] })).status).to.equal(200);
  });
  after(() => fb.stop());

  const ids = () => Object.values(people);

  describe('When a merge is undone', () => {
    it('returns both items, the people and the counts to exactly where they were', async () => {
      const before = await view(fb, owner.token, ids());
      const merged = await api().post(`${item('APP-1')}/merge`, { mergedKeys: ['APP-2'] });
      expect(merged.body).to.deep.equal({ survivorId: 'APP-1', mergedPeople: 3 });
      const during = await view(fb, owner.token, ids());
      expect(during.app1.item.plusOneCount).to.equal(3);
      expect(during.products).not.to.deep.equal(before.products);

      const res = await api().post(`${item('APP-1')}/unmerge`, { mergedKeys: ['APP-2'] });
      expect(res.status).to.equal(200);
      // people who were on the survivor only through APP-2: Bo, Dee, Eve (Cy +1'd both)
      expect(res.body).to.deep.equal({
        survivorId: 'APP-1',
        restoredKeys: ['APP-2'],
        restoredPeople: 3,
      });
      expect(await view(fb, owner.token, ids())).to.deep.equal(before);
    });

    it('answers the same and changes nothing when repeated', async () => {
      const history = (await api().get(`${item('APP-1')}/history`)).body.items.length;
      const again = await api().post(`${item('APP-1')}/unmerge`, { mergedKeys: ['APP-2'] });
      expect(again.body).to.deep.equal({
        survivorId: 'APP-1',
        restoredKeys: ['APP-2'],
        restoredPeople: 3,
      });
      expect((await api().get(`${item('APP-1')}/history`)).body.items.length).to.equal(history);
    });

    it('refuses a key never merged into the item, and bad bodies, with 400', async () => {
      expect400(await api().post(`${item('APP-1')}/unmerge`, { mergedKeys: ['APP-3'] }));
      expect400(await api().post(`${item('APP-1')}/unmerge`, { mergedKeys: ['APP-1'] }));
      expect400(await api().post(`${item('APP-1')}/unmerge`, { mergedKeys: [] }));
      expect400(await api().post(`${item('APP-1')}/unmerge`, { mergedKeys: ['nope'] }));
      expect400(await api().post(`${item('APP-1')}/unmerge`, { mergedKeys: ['APP-2'], x: 1 }));
      expectError(
        await api().post(`${item('APP-9')}/unmerge`, { mergedKeys: ['APP-2'] }),
        404,
        'not-found',
      );
    });
  });

  describe('When the same items are merged again after an unmerge', () => {
    it('gives the first merge’s answers', async () => {
      const first = await view(fb, owner.token, ids());
      await api().post(`${item('APP-1')}/merge`, { mergedKeys: ['APP-2'] });
      const mergedOnce = await view(fb, owner.token, ids());
      await api().post(`${item('APP-1')}/unmerge`, { mergedKeys: ['APP-2'] });
      expect(await view(fb, owner.token, ids())).to.deep.equal(first);
      const again = await api().post(`${item('APP-1')}/merge`, { mergedKeys: ['APP-2'] });
      expect(again.body).to.deep.equal({ survivorId: 'APP-1', mergedPeople: 3 });
      expect(await view(fb, owner.token, ids())).to.deep.equal(mergedOnce);
    });
  });

  describe('When things reached the survivor while merged', () => {
    it('keeps what reached it independently and gives back the +1s given on the merged item', async () => {
      // state: APP-2 merged into APP-1 (previous test)
      await plusOne('APP-1', people.dee!); // Dee +1s the survivor directly: she stays on both
      await plusOne('APP-2', people.fay!); // Fay +1s the merged item: it lands on APP-1
      const during = (await api().get(item('APP-1'))).body;
      expect(during.participants.at(-1)).to.deep.include({
        personId: people.fay,
        context: '+1 on APP-2',
      });
      const res = await api().post(`${item('APP-1')}/unmerge`, { mergedKeys: ['APP-2'] });
      expect(res.body.restoredPeople).to.equal(3); // Bo, Eve, Fay
      const survivor = (await api().get(item('APP-1'))).body;
      expect(survivor.participants.map((p: { personId: string }) => p.personId)).to.deep.equal([
        survivor.participants[0].personId,
        people.cy,
        people.dee,
      ]);
      expect(survivor.item.plusOneCount).to.equal(2);
      const restored = (await api().get(item('APP-2'))).body;
      expect(restored.item.plusOneCount).to.equal(3); // Cy, Dee, and Fay's +1 given back
      expect(restored.item.status).to.equal('planned');
      expect(restored.item.tagIds).to.deep.equal(['ui']);
      const fay = (await api().get(`/v1/workspaces/${SLUG}/people/${people.fay}`)).body;
      expect(fay.items.map((i: { id: string; role: string }) => [i.id, i.role])).to.deep.equal([
        ['APP-2', 'plus-one'],
      ]);
    });
  });
});
