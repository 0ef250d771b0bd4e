/**
 * Retrying a webhook write with the same Idempotency-Key. The OpenAPI document promises it on
 * every write: "the same key on the same resource returns the first result instead of writing
 * again; the same key with a different request is refused". For the writes that make a secret
 * that means the first secret: a client whose first answer was lost must be able to verify.
 */
import { expect } from 'chai';
import { verify } from './support/receiver.js';
import {
  expectError,
  hook,
  hooks,
  type Receiver,
  startWorldWith,
  stopWorld,
  subscribe,
  type World,
} from './support/world.js';

describe('Retrying webhook writes with an Idempotency-Key (e2e)', () => {
  let world: World;
  let receiver: Receiver;

  before(async () => {
    [world, receiver] = await startWorldWith(1);
  });
  after(() => stopWorld(world, receiver));
  const api = () => world.fb.api(world.owner.token);
  const keyed = (key: string) => ({ headers: { 'idempotency-key': key } });

  it('create_webhook answers the first webhook and its secret again, and makes no second one', async () => {
    const body = { url: receiver.url, eventTypes: ['webhook.test'] };
    const first = await api().post(hooks(), body, keyed('create-1'));
    const retry = await api().post(hooks(), body, keyed('create-1'));
    expect(first.status).to.equal(200);
    expect(retry.status).to.equal(200);
    expect(retry.body).to.deep.equal(first.body);
    const listed = await api().get(hooks());
    const ids = listed.body.items.map((w: { id: string }) => w.id);
    expect(ids.filter((id: string) => id === first.body.webhook.id)).to.have.length(1);

    expectError(
      await api().post(hooks(), { ...body, description: 'other' }, keyed('create-1')),
      409,
      'failed-precondition',
    );
    // another admin's key is their own
    const second = await world.fb.createMaker('second@acme.io', 'laptop');
    await world.fb.addMember(world.ws, second.userId, 'admin');
    const theirs = await world.fb.api(second.token).post(hooks(), body, keyed('create-1'));
    expect(theirs.status).to.equal(200);
    expect(theirs.body.webhook.id).not.to.equal(first.body.webhook.id);
  });

  it('rotate_webhook_secret answers the same secret again, so the original keeps verifying', async () => {
    const { id, secret: original } = await subscribe(world, receiver, {
      eventTypes: ['webhook.test'],
    });
    const rotate = () => api().post(`${hook(id)}/rotate-secret`, undefined, keyed('rotate-1'));
    const first = await rotate();
    const retry = await rotate();
    expect(first.status).to.equal(200);
    expect(retry.body.secret).to.equal(first.body.secret);

    // one rotation happened, so the replaced secret still signs for 24 hours
    const sent = await api().post(`${hook(id)}/test`);
    expect(sent.status).to.equal(200);
    const [request] = (await receiver.until(receiver.received.length + 1)).slice(-1);
    expect(() => verify(original, request!)).not.to.throw();
    expect(() => verify(first.body.secret, request!)).not.to.throw();
  });

  it('send_test_webhook answers the first delivery again and sends one message', async () => {
    const { id } = await subscribe(world, receiver, { eventTypes: ['webhook.test'] });
    const before = receiver.received.length;
    const first = await api().post(`${hook(id)}/test`, undefined, keyed('test-1'));
    const retry = await api().post(`${hook(id)}/test`, undefined, keyed('test-1'));
    expect(first.status).to.equal(200);
    expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
    expect(retry.body.deliveryId).to.equal(first.body.deliveryId);
    await receiver.until(before + 1);
    const deliveries = await api().get(`${hook(id)}/deliveries`);
    expect(deliveries.body.items).to.have.length(1);
  });
});
