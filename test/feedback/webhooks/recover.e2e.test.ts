/**
 * README, Webhooks, Retries: "`recover_webhook` with `since` sends every failed one again (but
 * `webhook.test` messages) … A `webhook.test` message (`send_test_webhook`) is tried once …
 * and `recover_webhook` leaves it so: a probe resent after an outage would only be noise to you
 * (`redeliver_webhook` sends one again when asked by its id)." The spec leaves delivery to the
 * design ("Event kinds, payload shape, delivery and signing of outbound webhooks: not shown").
 * A recover after an outage resent the day's failed probes beside the subscription's messages.
 */
import { expect } from 'chai';
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

type Delivery = { id: string; eventType: string; status: string };

describe('When an admin recovers a webhook after an outage (e2e, simulated time)', () => {
  let world: World;
  let receiver: Receiver;
  before(async () => {
    [world, receiver] = await startWorldWith(1);
  });
  after(() => stopWorld(world, receiver));

  it('sends the failed messages of the subscription again, not the failed test messages', async function () {
    this.timeout(120_000);
    const api = world.fb.api(world.owner.token);
    const since = world.fb.clock.now();
    const { id, secret } = await subscribe(world, receiver);
    const deliveries = async () =>
      (await api.get(`${hook(id)}/deliveries?pageSize=200`)).body.items as Delivery[];
    receiver.answer = () => ({ status: 500 });
    const probe = await api.post(`${hook(id)}/test`);
    expect(probe.status, JSON.stringify(probe.body)).to.equal(200);
    await submit(world, 'Filed during the outage');
    // the item's message runs through its eight attempts (about 27.6 hours)
    await settle(world, id);
    for (let hour = 0; hour < 30; hour++) {
      world.fb.clock.advance(HOUR);
      await settle(world, id);
    }
    const failed = await deliveries();
    expect(failed.map((d) => [d.eventType, d.status]).sort()).to.deep.equal([
      ['item.created', 'failed'],
      ['webhook.test', 'failed'],
    ]);
    const sentBefore = receiver.received.length;

    receiver.answer = () => ({ status: 204 });
    const recovered = await api.post(`${hook(id)}/recover`, { since });
    expect(recovered.status, JSON.stringify(recovered.body)).to.equal(200);
    await eventually(
      async () => (await deliveries()).some((d) => d.status === 'succeeded'),
      'the item’s message to be delivered',
    );
    await settle(world, id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = receiver.received.slice(sentBefore).map((r) => verify(secret, r).type);
    expect(after, 'what the receiver got after the recover').to.deep.equal(['item.created']);
    expect(recovered.body).to.deep.equal({ queued: 1, left: 0 });
    const test = (await api.get(`${hook(id)}/deliveries/${probe.body.deliveryId}`)).body.delivery;
    expect(test).to.include({ status: 'failed', attemptCount: 1 });

    // asked for by its id, the probe is sent again
    const again = await api.post(`${hook(id)}/deliveries/${probe.body.deliveryId}/redeliver`);
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    const [last] = (await receiver.until(after.length + sentBefore + 1)).slice(-1);
    expect(verify(secret, last!).type).to.equal('webhook.test');
  });
});
