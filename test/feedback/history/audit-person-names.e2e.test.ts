/**
 * The audit trail names a person who acted by the name they had then, on the events of their own
 * record too (PersonCreated, PersonUpdated), not only on item events — README: history and the
 * audit trail show "people with the names they had then". Over real HTTP: someone outside the
 * workspace files through submit_feedback (they are the person the item is from, and their
 * person record is theirs), then their assistant (an OAuth client acting for them) files under
 * another name, then they file again under a third.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';
import { connectClient } from '../support/oauth.js';

interface ChangeBody {
  type: string;
  actor: { kind: string; name: string | null; actingFor?: { name: string | null } };
  summary: string;
}

describe('When a person renames themselves after acting', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  let owner: Maker;
  let trail: ChangeBody[];

  before(async () => {
    fb = await startFeedback();
    owner = await fb.createMaker('max@acme.io');
    await fb.createProduct(owner.home, { key: 'APP', name: 'App', visibility: 'public' });
    const eve = fb.api((await fb.createMaker('eve@else.io')).token);
    const board = `/v1/public/${owner.home.slug}/APP/feedback`;
    const first = await eve.post(board, { body: 'Dark mode please', displayName: 'Eve' });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    fb.clock.advance(10_000);
    const helper = await connectClient(fb, {
      email: 'eve@else.io',
      scope: 'openid service.public',
      name: 'Helper',
    });
    const second = await fb
      .api(helper.accessToken)
      .post(board, { body: 'Export to CSV', displayName: 'Evie' });
    expect(second.status, JSON.stringify(second.body)).to.equal(200);
    fb.clock.advance(10_000);
    const third = await eve.post(board, { body: 'Print view', displayName: 'Eva' });
    expect(third.status, JSON.stringify(third.body)).to.equal(200);
    await fb.caughtUp();
    const res = await fb.api(owner.token).get(`/v1/workspaces/${owner.home.slug}/audit`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    trail = (res.body.items as ChangeBody[])
      .filter((c) => c.type.startsWith('Item') || c.type.startsWith('Person'))
      .reverse();
  });
  after(() => fb?.stop());

  it('names them as they were named on each event, their own record’s included', () => {
    const named = (c: ChangeBody) => c.actor.actingFor?.name ?? c.actor.name;
    expect(trail.map((c) => [c.type, named(c), c.summary])).to.deep.equal([
      ['PersonCreated', 'Eve', "Eve was added to the workspace's people"],
      ['ItemCaptured', 'Eve', 'Eve submitted “Dark mode please” via pat:laptop'],
      // a rename is made by the person still under the name it replaces
      ['PersonUpdated', 'Eve', 'Helper acting for Eve updated the person Evie (displayName)'],
      ['ItemCaptured', 'Evie', 'Helper acting for Evie submitted “Export to CSV”'],
      ['PersonUpdated', 'Evie', 'Evie updated the person Eva (displayName)'],
      ['ItemCaptured', 'Eva', 'Eva submitted “Print view” via pat:laptop'],
    ]);
  });
});
