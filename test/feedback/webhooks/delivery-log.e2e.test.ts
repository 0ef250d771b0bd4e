/**
 * The delivery log's operations as the OpenAPI document states them: list_webhook_deliveries
 * "List a webhook’s deliveries, newest first", its `nextCursor` "null at the end"; get and
 * redeliver answer 404 `delivery not found` for a delivery the webhook does not have.
 */
import { expect } from 'chai';
import {
  expectError,
  hook,
  hooks,
  type Receiver,
  startWorldWith,
  stopWorld,
  type World,
} from './support/world.js';

describe('Reading and redelivering a webhook’s deliveries (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  let webhookId: string;
  let otherWebhookId: string;
  /** the test messages' deliveries, oldest first */
  const sent: string[] = [];

  before(async () => {
    [world, receiver] = await startWorldWith(1);
    const api = world.fb.api(world.owner.token);
    webhookId = (await api.post(hooks(), { url: receiver.url })).body.webhook.id;
    otherWebhookId = (await api.post(hooks(), { url: receiver.url })).body.webhook.id;
    for (let i = 0; i < 4; i++) {
      const res = await api.post(`${hook(webhookId)}/test`);
      expect(res.status).to.equal(200);
      sent.push(res.body.deliveryId);
    }
  });
  after(() => stopWorld(world, receiver));
  const api = () => world.fb.api(world.owner.token);
  const deliveries = (id: string) => `${hook(id)}/deliveries`;

  it('pages newest first, the next page going on where the first stopped and an exact last page ending with a null cursor', async () => {
    const first = await api().get(`${deliveries(webhookId)}?pageSize=2`);
    expect(first.status).to.equal(200);
    expect(first.body.items.map((d: { id: string }) => d.id)).to.deep.equal([sent[3], sent[2]]);
    expect(first.body.nextCursor).to.be.a('string');
    const second = await api().get(
      `${deliveries(webhookId)}?pageSize=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
    );
    expect(second.status).to.equal(200);
    expect(second.body.items.map((d: { id: string }) => d.id)).to.deep.equal([sent[1], sent[0]]);
    // the log holds exactly these four: nothing is left for a next page
    expect(second.body.nextCursor).to.equal(null);
    const whole = await api().get(`${deliveries(webhookId)}?pageSize=4`);
    expect(whole.body.items).to.have.length(4);
    expect(whole.body.nextCursor).to.equal(null);
  });

  it('answers 404 to a redelivery of a delivery the webhook does not have, and queues nothing', async () => {
    const unknown = 'dlv_aaaaaaaaaaaaaaaaaaaaaaaa';
    expectError(
      await api().post(`${deliveries(webhookId)}/${unknown}/redeliver`),
      404,
      'not-found',
    );
    // another webhook's delivery is not this one's
    expectError(
      await api().post(`${deliveries(otherWebhookId)}/${sent[0]}/redeliver`),
      404,
      'not-found',
    );
    expectError(await api().get(`${deliveries(otherWebhookId)}/${sent[0]}`), 404, 'not-found');
    expect((await api().get(deliveries(otherWebhookId))).body.items).to.deep.equal([]);
  });
});
