/**
 * The same operations inside the real feedback service (real personal API tokens, the real app
 * and authorizer), proving they are wired into its registry.
 */
import { expect } from 'chai';
import { updateItemStatus } from '../../../src/feedback/actions/index.js';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';

describe('Close-the-loop operations in the feedback service', () => {
  let fb: FeedbackHarness;
  let owner: Maker;
  before(async () => {
    fb = await startFeedback();
    owner = await fb.createMaker('max@acme.io');
    await fb.createProduct(owner.home, { key: 'APP', name: 'App' });
  });
  after(() => fb.stop());

  it('refuses notify_people without confirm true and records nothing, then records with it', async () => {
    // spec rule 1: "notify_people without confirm equal to true answers 400 and sends nothing"
    const { itemKey } = await fb.submit(owner.home, 'APP', {
      body: 'Dark mode',
      email: 'ada@x.io',
      displayName: 'Ada',
    });
    const deps = fb.deps();
    const { position } = await updateItemStatus(deps, fb.context(), {
      workspaceId: owner.home.workspaceId,
      productKey: 'APP',
      itemKey,
      status: 'shipped',
    });
    await fb.caughtUp(position);
    const path = `/v1/workspaces/${owner.home.slug}/products/APP/items/${itemKey}/notify`;
    const events = () =>
      fb.runtime.runtime.stores.eventStore.readAll({ filter: { eventTypes: ['PeopleNotified'] } });
    for (const body of [{}, { confirm: false }, { confirm: 'true' }]) {
      const res = await fb.api(owner.token).post(path, body);
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('invalid-argument');
    }
    expect(await events()).to.have.length(0);
    const ok = await fb.api(owner.token).post(path, { confirm: true });
    expect(ok.status).to.equal(200);
    expect(ok.body.notified).to.equal(1);
    expect(await events()).to.have.length(1);
  });

  it('answers who_needs_followup and get_person for a member', async () => {
    const followup = await fb.api(owner.token).get(`/v1/workspaces/${owner.home.slug}/followup`);
    expect(followup.status).to.equal(200);
    expect(followup.body).to.have.keys(['shippedUnnotified', 'stalePromises', 'repliesOwed']);
    const people = await fb.api(owner.token).get(`/v1/workspaces/${owner.home.slug}/people`);
    expect(people.status).to.equal(200);
    const record = await fb
      .api(owner.token)
      .get(`/v1/workspaces/${owner.home.slug}/people/${people.body.items[0].id}`);
    expect(record.status).to.equal(200);
    expect(record.body.awaitingReply).to.be.a('boolean');
  });
});
