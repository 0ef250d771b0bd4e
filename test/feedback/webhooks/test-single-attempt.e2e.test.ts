/**
 * README, Webhooks, Retries: "A `webhook.test` message (`send_test_webhook`) is tried once:
 * whoever sent it wants to see what your receiver did, not a day of retries, so after a failed
 * attempt it is `failed` at once." (The spec leaves delivery to the design: "Event kinds, payload
 * shape, delivery and signing of outbound webhooks: not shown.") Retried like an item's message,
 * one allowed test send made eight requests over 27.6 hours.
 */
import { expect } from 'chai';
import {
  eventually,
  HOUR,
  hook,
  type Receiver,
  startWorldWith,
  stopWorld,
  subscribe,
  type World,
} from './support/world.js';

describe('When a test message is answered with a failure (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  before(async () => {
    [world, receiver] = await startWorldWith(1);
    receiver.answer = () => ({ status: 500 });
  });
  after(() => stopWorld(world, receiver));

  it('is failed after its one attempt, and nothing is sent again a day later', async () => {
    const api = world.fb.api(world.owner.token);
    const { id } = await subscribe(world, receiver);
    const sent = await api.post(`${hook(id)}/test`);
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    const path = `${hook(id)}/deliveries/${sent.body.deliveryId}`;
    const first = await eventually(async () => {
      const { body } = await api.get(path);
      return body.delivery?.attemptCount > 0 && body.delivery;
    }, 'the first attempt');
    expect(first).to.include({ status: 'failed', attemptCount: 1, lastResponseStatus: 500 });
    expect(first.nextAttemptAt).to.equal(null);

    // past every retry an item's message would have had
    for (let step = 0; step < 28; step++) world.fb.clock.advance(HOUR);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received, 'requests the receiver got').to.have.length(1);
    expect((await api.get(path)).body.delivery).to.include({ status: 'failed', attemptCount: 1 });
  });
});
