/**
 * Two recover_webhook calls sent together after an outage. README (Webhooks, Retries):
 * "`recover_webhook` with `since` sends every failed one again"; "Each call holds its place in
 * every one of these counts before it sends … one that sends nothing after all (… another
 * recover queued those failures first) gives its places back"; and it "answers how many it
 * `queued` and how many are `left` failed — call it again a minute later for those". So each
 * failed message reaches the receiver once more, not once per call, and the call that found
 * them taken answers none `left` (there is nothing to call again for). The store holds the two
 * calls' counts of the failed deliveries until both have counted, so that they meet there
 * whatever the timing; the rest runs as in production over HTTP on 127.0.0.1.
 */
import { expect } from 'chai';
import { DELIVERIES } from '../../../src/webhooks/delivery/records.js';
import { heldReadsIn } from '../../support/held-reads.js';
import { verify } from './support/receiver.js';
import {
  eventually,
  HOUR,
  hook,
  type Receiver,
  settle,
  startWorldWith,
  stopWorld,
  submit,
  subscribe,
  type World,
} from './support/world.js';

type Delivery = { id: string; messageId: string; status: string };

describe('When an admin sends two recover_webhook calls together (e2e, simulated time)', () => {
  let world: World;
  let receiver: Receiver;
  let reads: ReturnType<typeof heldReadsIn>;
  before(async () => {
    [world, receiver] = await startWorldWith(1);
    reads = heldReadsIn(world.fb.deps().readStore, [DELIVERIES]);
  });
  after(() => stopWorld(world, receiver));

  it('sends each failed message again once, and the second call answers none queued, none left', async function () {
    this.timeout(120_000);
    const api = world.fb.api(world.owner.token);
    const since = world.fb.clock.now();
    const { id, secret } = await subscribe(world, receiver);
    const deliveries = async () =>
      (await api.get(`${hook(id)}/deliveries?pageSize=200`)).body.items as Delivery[];
    receiver.answer = () => ({ status: 500 });
    await submit(world, 'First, during the outage');
    await submit(world, 'Second, during the outage');
    await submit(world, 'Third, during the outage', 'WEB');
    // each message runs through its eight attempts (about 27.6 hours)
    await settle(world, id);
    for (let hour = 0; hour < 30; hour++) {
      world.fb.clock.advance(HOUR);
      await settle(world, id);
    }
    const failed = await deliveries();
    expect(failed.map((d) => d.status)).to.deep.equal(['failed', 'failed', 'failed']);
    const sentBefore = receiver.received.length;

    receiver.answer = () => ({ status: 204 });
    // both calls count the failed deliveries before either queues them
    const met = reads.hold(DELIVERIES, 2, { answered: true, method: 'countDocuments' });
    const calls = Promise.all([
      api.post(`${hook(id)}/recover`, { since }),
      api.post(`${hook(id)}/recover`, { since }),
    ]);
    for (const release of await met) release();
    const answers = await calls;
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(answers.map((res) => res.body).sort((a, b) => b.queued - a.queued)).to.deep.equal([
      { queued: 3, left: 0 },
      { queued: 0, left: 0 },
    ]);

    await eventually(
      async () => (await deliveries()).every((d) => d.status === 'succeeded'),
      'the three messages to be delivered',
    );
    await settle(world, id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const resent = receiver.received.slice(sentBefore);
    for (const request of resent) verify(secret, request);
    const times = new Map<string, number>();
    for (const request of resent) times.set(request.id, (times.get(request.id) ?? 0) + 1);
    expect(
      [...times.values()],
      'times each failed message reached the receiver after the recovers',
    ).to.deep.equal([1, 1, 1]);
    expect([...times.keys()].sort()).to.deep.equal(failed.map((d) => d.messageId).sort());
  });
});
