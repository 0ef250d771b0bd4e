/**
 * Two redeliver_webhook calls without an Idempotency-Key. README (Webhooks): "A retry … with the
 * same `Idempotency-Key` answers the first delivery, sends nothing and counts nothing"; without a
 * key, two calls are two requests: "each sends the message once more", one after the other,
 * whenever they come — together, while the first waits, or while its attempt is under way. Both
 * are counted by the throttle, so both must send. Before, two calls that both landed before the
 * attempt began sent once, and two that straddled its start sent twice.
 */
import { expect } from 'chai';
import { DELIVERIES } from '../../../src/webhooks/delivery/records.js';
import { heldReadsIn } from '../../support/held-reads.js';
import {
  eventually,
  hook,
  type Receiver,
  startWorldWith,
  stopWorld,
  subscribe,
  type World,
} from './support/world.js';

describe('When an admin redelivers one message twice without an Idempotency-Key (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  let writes: ReturnType<typeof heldReadsIn>;
  before(async () => {
    [world, receiver] = await startWorldWith(1);
    writes = heldReadsIn(world.fb.deps().readStore, [DELIVERIES]);
  });
  after(() => stopWorld(world, receiver));

  /** a webhook at its own path with one delivered test message */
  async function delivered(name: string) {
    const api = world.fb.api(world.owner.token);
    const url = `${receiver.url}?for=${name}`;
    const { id } = await subscribe(world, url, { eventTypes: ['webhook.test'] });
    const sent = await api.post(`${hook(id)}/test`);
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    const path = `${hook(id)}/deliveries/${sent.body.deliveryId}`;
    await eventually(
      async () => (await api.get(path)).body.delivery?.status === 'succeeded',
      'the test to be delivered',
    );
    const mine = () => receiver.received.filter((r) => r.path === `/hooks?for=${name}`);
    return { id, path, mine };
  }

  /** both calls answered 200, then exactly `count` requests in all, and the log has them */
  async function expectSent(
    target: Awaited<ReturnType<typeof delivered>>,
    calls: { status: number; body: unknown }[],
    count: number,
  ) {
    for (const call of calls) expect(call.status, JSON.stringify(call.body)).to.equal(200);
    const api = world.fb.api(world.owner.token);
    await eventually(async () => {
      const { body } = await api.get(target.path);
      return body.delivery?.status === 'succeeded' && body.delivery.attemptCount >= count;
    }, `${count} attempts to be recorded`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(target.mine(), 'requests the receiver got').to.have.length(count);
    expect(new Set(target.mine().map((r) => r.id)).size, 'one webhook-id').to.equal(1);
    const { body } = await api.get(target.path);
    expect(body.delivery).to.include({ status: 'succeeded', attemptCount: count });
  }

  // the two calls queue the delivery at the same moment (the store holds both writes until both
  // have arrived), so both land before its attempt begins: the case that sent once
  it('sends it twice more when the two calls are sent together', async () => {
    const target = await delivered('together');
    const api = world.fb.api(world.owner.token);
    const redeliver = () => api.post(`${target.path}/redeliver`);
    const met = writes.hold(DELIVERIES, 2, { method: 'updateOne' });
    const sent = Promise.all([redeliver(), redeliver()]);
    for (const go of await met) go();
    await expectSent(target, await sent, 3);
  });

  it('sends it twice more when both calls wait for the paused webhook', async () => {
    const target = await delivered('paused');
    const api = world.fb.api(world.owner.token);
    const paused = await api.patch(hook(target.id), { enabled: false });
    expect(paused.status, JSON.stringify(paused.body)).to.equal(200);
    const redeliver = () => api.post(`${target.path}/redeliver`);
    const calls = await Promise.all([redeliver(), redeliver()]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(target.mine(), 'nothing is sent while paused').to.have.length(1);
    const resumed = await api.patch(hook(target.id), { enabled: true });
    expect(resumed.status, JSON.stringify(resumed.body)).to.equal(200);
    await expectSent(target, calls, 3);
  });
});
