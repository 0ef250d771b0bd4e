/**
 * README, Webhooks, Retries: "A `webhook.test` message (`send_test_webhook`) is tried once:
 * whoever sent it wants to see what your receiver did, not a day of retries, so after a failed
 * attempt it is `failed` at once." (The spec leaves delivery to the design: "Event kinds, payload
 * shape, delivery and signing of outbound webhooks: not shown.") Retried like an item's message,
 * one allowed test send made eight requests over 27.6 hours.
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

/**
 * README, Webhooks: "`410 Gone` disables the webhook … and keeps the message" — but a test is
 * tried once, so a 410 to one disables the webhook and leaves the test `failed`. It stayed
 * queued instead, and re-enabling the webhook sent it again, after the messages newer than it.
 */
describe('When a test message is answered 410 Gone (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  before(async () => {
    [world, receiver] = await startWorldWith(1);
    receiver.answer = () => ({ status: 410 });
  });
  after(() => stopWorld(world, receiver));

  it('disables the webhook, the test failed; re-enabling sends what came since, not the test again', async () => {
    const api = world.fb.api(world.owner.token);
    const { id, secret } = await subscribe(world, receiver);
    const sent = await api.post(`${hook(id)}/test`);
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    await eventually(
      async () => (await api.get(hook(id))).body.webhook.enabled === false,
      'the webhook to be disabled',
    );
    const path = `${hook(id)}/deliveries/${sent.body.deliveryId}`;
    const gone = (await api.get(path)).body.delivery;
    expect(gone).to.include({ status: 'failed', attemptCount: 1, lastResponseStatus: 410 });
    expect(gone.nextAttemptAt).to.equal(null);

    receiver.answer = () => ({ status: 204 });
    await submit(world, 'Filed while the webhook was off');
    expect((await api.patch(hook(id), { enabled: true })).status).to.equal(200);
    const [, resumed] = await receiver.until(2);
    expect(verify(secret, resumed!).type).to.equal('item.created');
    await settle(world, id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const types = receiver.received.map((request) => verify(secret, request).type);
    expect(types, 'what the receiver got').to.deep.equal(['webhook.test', 'item.created']);
  });
});
