/**
 * `/readyz` over HTTP when writes cannot be stored. An audit filled the data directory's disk:
 * every write answered 503 while /readyz said "ok". README: "`/readyz` … 503 while the service
 * cannot do its work".
 */
import { expect } from 'chai';
import { EventStoreUnavailableError } from '../../src/eventstore/types.js';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';

describe('/readyz while the event store refuses appends (e2e)', function () {
  this.timeout(30_000);
  let fb: FeedbackHarness;
  let token = '';

  before(async () => {
    fb = await startFeedback();
    const owner = await fb.createMaker('ops@acme.io', 'laptop');
    const ws = await fb.createWorkspace(owner, { slug: 'ready-co', name: 'Ready' });
    await fb.createProduct(ws, { key: 'RDY', name: 'Ready', visibility: 'public' });
    token = owner.token;
  });
  after(() => fb.stop());
  const submit = () =>
    fb.api(token).post('/v1/public/ready-co/RDY/feedback', { body: 'Is it ready?' });
  const ready = async () => {
    const res = await fetch(`${fb.url}/readyz`);
    return {
      status: res.status,
      body: (await res.json()) as { status: string; reasons?: string[] },
    };
  };

  it('answers 503 with the reason after a refused append, and 200 again after one goes through', async () => {
    expect((await ready()).status).to.equal(200);
    const store = fb.runtime.runtime.stores.eventStore;
    const append = store.appendToStream;
    store.appendToStream = async () => {
      throw new EventStoreUnavailableError('commit failed (database or disk is full)');
    };
    try {
      expect((await submit()).status).to.equal(503);
      const degraded = await ready();
      expect(degraded.status).to.equal(503);
      expect(degraded.body.status).to.equal('degraded');
      expect(degraded.body.reasons).to.deep.equal([
        'the event store refused the last append: commit failed (database or disk is full)',
      ]);
    } finally {
      store.appendToStream = append;
    }
    expect((await submit()).status).to.equal(200);
    const again = await ready();
    expect(again.status).to.equal(200);
    expect(again.body).not.to.have.property('reasons');
  });
});
