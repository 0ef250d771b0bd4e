/**
 * Who merged, when a crash split the merge: README (History) "Every change is an event with its
 * actor, `via`, time and correlation id", and a merge or unmerge "is two steps that converge
 * after a crash ... a restart finishes an interrupted one". The step the restart finishes is
 * still the request's: the survivor's history named "The system" (actor null, a fresh
 * correlation id) as the one who merged, so an auditor could not tell whose merge it was nor
 * link the two halves.
 *
 * The crash is made at the edge: the event store refuses the request's second append, once.
 */
import { expect } from 'chai';
import { itemStreamId } from '../../../commands/item/index.js';
import type { EventStore } from '../../../src/eventstore/types.js';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';
import { itemPath, SLUG } from './story.js';

interface ChangeBody {
  type: string;
  actor: { kind: string; id: string | null; name: string | null };
  via?: string;
  credentialId?: string;
  correlationId: string;
  clientCorrelationId?: string;
  finishedAfterInterruption?: true;
  summary: string;
}

/** The next append to `streamId` fails as a crash would; the ones before and after go through. */
function crashOnceOn(store: EventStore, streamId: string): void {
  const append = store.appendToStream.bind(store);
  let armed = true;
  store.appendToStream = async (id, events, options) => {
    if (armed && id === streamId) {
      armed = false;
      throw new Error(`simulated crash before appending to ${id}`);
    }
    return append(id, events, options);
  };
}

describe('A merge or unmerge a crash interrupted, finished by the restart (e2e)', () => {
  let fb: FeedbackHarness;
  let owner: Maker;
  let workspaceId: string;
  before(async function () {
    this.timeout(60_000);
    fb = await startFeedback({ fixedPort: true });
    owner = await fb.createMaker('max@acme.io', 'laptop');
    const ws = await fb.createWorkspace(owner, { slug: SLUG, name: 'Acme' });
    workspaceId = ws.workspaceId;
    await fb.createProduct(ws, { key: 'APP', name: 'Acme App', visibility: 'public' });
    for (const email of ['ann@customer.io', 'bo@customer.io', 'cy@customer.io']) {
      await fb.submit(ws, 'APP', { body: `Dark mode, says ${email}`, email });
    }
  });
  after(() => fb.stop());
  const api = () => fb.api(owner.token);
  const history = async (itemKey: string): Promise<ChangeBody[]> => {
    const res = await api().get(`${itemPath(itemKey)}/history`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.items;
  };
  /** the restart's recovery runs in the background */
  async function lastChangeOnceThere(itemKey: string, type: string): Promise<ChangeBody> {
    for (let i = 0; i < 100; i++) {
      const last = (await history(itemKey)).at(-1)!;
      if (last.type === type) return last;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no ${type} on ${itemKey} after the restart`);
  }
  const store = () => fb.runtime.runtime.stores.eventStore;

  it('names the maker who merged, with the request’s via and correlation id', async function () {
    this.timeout(60_000);
    crashOnceOn(store(), itemStreamId(workspaceId, 'APP-1'));
    const merge = await api().post(
      `${itemPath('APP-1')}/merge`,
      { mergedKeys: ['APP-2', 'APP-3'] },
      { headers: { 'x-correlation-id': 'merge-request-1' } },
    );
    expect(merge.status, 'the crashed request').to.be.at.least(500);
    const mergeId = merge.headers.get('x-correlation-id');
    const firstStep = (await history('APP-2')).at(-1)!;
    expect(firstStep).to.include({
      type: 'ItemMergedInto',
      correlationId: mergeId,
      clientCorrelationId: 'merge-request-1',
    });
    // the request made this step itself
    expect(firstStep).not.to.have.property('finishedAfterInterruption');
    await fb.restart();

    const recorded = await lastChangeOnceThere('APP-1', 'ItemsMerged');
    expect(recorded.actor).to.deep.equal({ kind: 'maker', id: owner.userId, name: 'max' });
    expect(recorded.via).to.equal('pat:laptop');
    // and the very token it came through, which the label alone does not tell (credential-ids)
    expect(recorded.credentialId).to.equal(owner.tokenId);
    expect(recorded.correlationId).to.equal(mergeId);
    expect(recorded.clientCorrelationId).to.equal('merge-request-1');
    // an auditor can tell the restart finished it (the step is the request's, not its own doing)
    expect(recorded.finishedAfterInterruption).to.equal(true);
    expect(recorded.summary).to.match(/^max merged APP-2 and APP-3 into this item/);
    // the webhook message of that step names the same maker
    const feed = await api().get(`/v1/workspaces/${SLUG}/events?types=item.merged&pageSize=200`);
    const onSurvivor = feed.body.items.find(
      (m: { data: { itemKey: string } }) => m.data.itemKey === 'APP-1',
    );
    expect(onSurvivor.data.actor).to.deep.equal(recorded.actor);
  });

  it('names the maker who unmerged on the item given back', async function () {
    this.timeout(60_000);
    crashOnceOn(store(), itemStreamId(workspaceId, 'APP-2'));
    const unmerge = await api().post(
      `${itemPath('APP-1')}/unmerge`,
      { mergedKeys: ['APP-2'] },
      { headers: { 'x-correlation-id': 'unmerge-request-1' } },
    );
    expect(unmerge.status, 'the crashed request').to.be.at.least(500);
    const unmergeId = unmerge.headers.get('x-correlation-id');
    expect((await history('APP-1')).at(-1)).to.include({
      type: 'ItemsUnmerged',
      correlationId: unmergeId,
      clientCorrelationId: 'unmerge-request-1',
    });
    await fb.restart();

    const takenBack = await lastChangeOnceThere('APP-2', 'ItemUnmerged');
    expect(takenBack.actor).to.deep.equal({ kind: 'maker', id: owner.userId, name: 'max' });
    expect(takenBack.via).to.equal('pat:laptop');
    expect(takenBack.correlationId).to.equal(unmergeId);
    expect(takenBack.clientCorrelationId).to.equal('unmerge-request-1');
    expect(takenBack.finishedAfterInterruption).to.equal(true);
  });

  it('names the maker who unmerged when another maker’s merge finishes that unmerge', async function () {
    // README: an unmerge "is two steps that converge after a crash ... merging again gives the
    // first merge's answers": merging the item again first finishes the unmerge, and that step
    // is still the unmerging request's — the merging maker only merged
    this.timeout(60_000);
    const zoe = await fb.createMaker('zoe@acme.io', 'desk');
    await fb.addMember({ workspaceId, slug: SLUG }, zoe.userId);
    crashOnceOn(store(), itemStreamId(workspaceId, 'APP-3'));
    const unmerge = await api().post(`${itemPath('APP-1')}/unmerge`, { mergedKeys: ['APP-3'] });
    expect(unmerge.status, 'the crashed request').to.be.at.least(500);
    const gaveBack = (await history('APP-1')).at(-1)!;
    expect(gaveBack.type).to.equal('ItemsUnmerged');

    const merge = await fb
      .api(zoe.token)
      .post(`${itemPath('APP-1')}/merge`, { mergedKeys: ['APP-3'] });
    expect(merge.status, JSON.stringify(merge.body)).to.equal(200);

    const [takenBack, mergedAgain] = (await history('APP-3')).slice(-2);
    expect(takenBack!.type).to.equal('ItemUnmerged');
    expect(takenBack!.actor).to.deep.equal({ kind: 'maker', id: owner.userId, name: 'max' });
    expect(takenBack!.via).to.equal('pat:laptop');
    expect(takenBack!.correlationId).to.equal(gaveBack.correlationId);
    expect(takenBack!.finishedAfterInterruption).to.equal(true);
    expect(mergedAgain!.type).to.equal('ItemMergedInto');
    expect(mergedAgain!).not.to.have.property('finishedAfterInterruption');
    expect(mergedAgain!.actor).to.deep.equal({ kind: 'maker', id: zoe.userId, name: 'zoe' });
  });
});
