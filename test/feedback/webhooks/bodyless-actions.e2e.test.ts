/**
 * README, Limits: "A write that takes no body (`rotate_webhook_secret`, `send_test_webhook`,
 * `redeliver_webhook`, `restore_note`, every DELETE, …) refuses a body with a field the same way
 * (`unknown field "secret"; it takes none`) … No body, an empty one and `{}` are accepted". The
 * subscriber audit: `{"secret": "…"}` sent to rotate_webhook_secret answered 200 with a secret
 * the client had not chosen, and `{"eventType": …}` to send_test_webhook sent a plain test.
 */
import { expect } from 'chai';
import { verify } from './support/receiver.js';
import {
  expectError,
  hook,
  type Receiver,
  startWorldWith,
  stopWorld,
  submit,
  subscribe,
  type World,
} from './support/world.js';

type Delivery = { id: string; eventType: string; status: string };

const TAKES_NONE = (field: string) => `unknown field "${field}"; it takes none`;

describe('Webhook operations that take no body, sent one (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  let webhook: { id: string; secret: string };
  before(async () => {
    [world, receiver] = await startWorldWith(1);
    webhook = await subscribe(world, receiver);
  });
  after(() => stopWorld(world, receiver));
  const api = () => world.fb.api(world.owner.token);
  const deliveries = async () =>
    (await api().get(`${hook(webhook.id)}/deliveries?pageSize=200`)).body.items as Delivery[];

  it('rotate_webhook_secret refuses {"secret": …} naming the field, and the secret stays', async () => {
    const mine = `whsec_${Buffer.from('my own secret, 32 bytes long....').toString('base64')}`;
    const res = await api().post(`${hook(webhook.id)}/rotate-secret`, { secret: mine });
    expectError(res, 400, 'invalid-argument');
    expect(res.body.error).to.equal(TAKES_NONE('secret'));
    // the subscriber's view: the next message carries one signature, by the secret it had
    await submit(world, 'After a refused rotation');
    const [request] = await receiver.until(1);
    expect(String(request!.headers['webhook-signature']).split(' ')).to.have.length(1);
    expect(verify(webhook.secret, request!).type).to.equal('item.created');
  });

  it('send_test_webhook refuses a field and sends nothing', async () => {
    const res = await api().post(`${hook(webhook.id)}/test`, { eventType: 'item.created' });
    expectError(res, 400, 'invalid-argument');
    expect(res.body.error).to.equal(TAKES_NONE('eventType'));
    expect((await deliveries()).map((d) => d.eventType)).to.deep.equal(['item.created']);
  });

  it('redeliver_webhook and delete_webhook refuse a field, and nothing changes', async () => {
    const [delivery] = await deliveries();
    const redeliver = `${hook(webhook.id)}/deliveries/${delivery.id}/redeliver`;
    const again = await api().post(redeliver, { attempts: 1 });
    expectError(again, 400, 'invalid-argument');
    expect(again.body.error).to.equal(TAKES_NONE('attempts'));
    const del = await api().del(hook(webhook.id), { raw: '{"force": true, "reason": "x"}' });
    expectError(del, 400, 'invalid-argument');
    expect(del.body.error).to.equal('unknown fields "force", "reason"; it takes none');
    expect((await api().get(hook(webhook.id))).status).to.equal(200);
    expect(receiver.received).to.have.length(1);
  });

  it('refuses a body that is not JSON, as curl -d sends one', async () => {
    const res = await api().post(`${hook(webhook.id)}/rotate-secret`, undefined, {
      raw: 'secret=whsec_abc',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(res, 400, 'invalid-argument');
    expect(res.body.error).to.equal(
      'this operation takes no request body: send none, or {} as application/json',
    );
  });

  it('accepts no body, an empty one and {}', async () => {
    const rotate = `${hook(webhook.id)}/rotate-secret`;
    expect((await api().post(rotate)).status).to.equal(200);
    expect((await api().post(rotate, undefined, { raw: '' })).status).to.equal(200);
    const empty = await api().post(rotate, {});
    expect(empty.status, JSON.stringify(empty.body)).to.equal(200);
    expect(empty.body.secret).to.match(/^whsec_/);
    const sent = await api().post(`${hook(webhook.id)}/test`, {});
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    expect((await api().del(hook(webhook.id), { raw: '{}' })).status).to.equal(204);
  });
});
