/**
 * A clock set back (NTP stepping it, an operator correcting it) must not reorder an item's
 * history: "`at` between two revisions answers the earlier" (issue 15) only holds when every
 * event of a stream is stamped no earlier than the one before it. Without that, a change made
 * after the step back got an earlier time than its predecessor, and as-of a moment before the
 * change answered the change (failure audit F6).
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';
import { itemPath, SLUG } from './story.js';

describe('Item history when the clock is set back (e2e)', () => {
  let fb: FeedbackHarness;
  let owner: Maker;
  before(async function () {
    this.timeout(60_000);
    fb = await startFeedback();
    owner = await fb.createMaker('max@acme.io', 'laptop');
    const ws = await fb.createWorkspace(owner, { slug: SLUG, name: 'Acme' });
    await fb.createProduct(ws, { key: 'APP', name: 'Acme App', visibility: 'public' });
  });
  after(() => fb.stop());

  it('stamps a later change no earlier than the one before it, and as-of keeps answering the earlier revision', async () => {
    const api = fb.api(owner.token);
    const created = await api.post(`/v1/public/${SLUG}/APP/feedback`, {
      title: 'Dark mode',
      body: 'The white background hurts at night',
      email: 'ann@customer.io',
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    fb.clock.advance(60_000);
    const planned = await api.post(`${itemPath('APP-1')}/status`, { status: 'planned' });
    expect(planned.status).to.equal(200);
    fb.clock.advance(-30_000); // the clock is stepped back half a minute
    const started = await api.post(`${itemPath('APP-1')}/status`, { status: 'in-progress' });
    expect(started.status).to.equal(200);

    const history = (await api.get(`${itemPath('APP-1')}/history`)).body.items as {
      revision: number;
      occurredAt: number;
    }[];
    expect(history.map((h) => h.revision)).to.deep.equal([0, 1, 2]);
    const times = history.map((h) => h.occurredAt);
    expect(times[2], 'the change after the step back').to.be.at.least(times[1]!);

    // a moment before "planned" answers the item as filed, not the change made after "planned"
    const before = await api.get(`${itemPath('APP-1')}/as-of?at=${times[1]! - 1_000}`);
    expect(before.status).to.equal(200);
    expect(before.body.revision).to.equal(0);
    expect(before.body.item.status).to.equal('new');
  });
});
