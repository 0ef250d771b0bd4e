/**
 * redeliver_webhook asked while the delivery's attempt is still waiting for the receiver's
 * answer. Its description: "A new attempt of the same message, with the same `webhook-id`, now
 * and with a fresh retry schedule"; README (Webhooks, Retries): "`redeliver_webhook` any one of
 * them, a test too". The attempt under way then recorded its own outcome over the request — a
 * failed test `failed`, an item's message its next retry minutes away — so the call answered
 * 200 and nothing was sent again.
 */
import { expect } from 'chai';
import { DELIVERIES } from '../../../src/webhooks/delivery/records.js';
import { heldReadsIn } from '../../support/held-reads.js';
import { verify } from './support/receiver.js';
import {
  eventually,
  hook,
  type Receiver,
  startWorldWith,
  stopWorld,
  submit,
  subscribe,
  type World,
} from './support/world.js';

describe('When an admin redelivers a message while the receiver still holds its attempt (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  before(async () => {
    [world, receiver] = await startWorldWith(1);
  });
  after(() => stopWorld(world, receiver));

  /**
   * the requests to the webhook at `path`: those before the `held`th are answered 500, that one
   * is held until `release` and answered 500, the later ones 204
   */
  function holdAt(path: string, heldAt: number) {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const mine = () => receiver.received.filter((r) => r.path === path);
    receiver.answer = (request) => {
      if (request.path !== path || mine().length > heldAt) return { status: 204 };
      return mine().length === heldAt ? { status: 500, hold: held } : { status: 500 };
    };
    const until = (count: number) =>
      eventually(async () => mine().length >= count && mine(), `${count} requests at ${path}`);
    return { release, until };
  }

  for (const what of ['test', 'item'] as const) {
    it(`sends it again now once the held attempt fails (${what === 'test' ? 'a webhook.test' : 'an item’s message'}), and logs every attempt`, async () => {
      const api = world.fb.api(world.owner.token);
      const { id, secret } = await subscribe(world, `${receiver.url}?for=${what}`);
      // an item's message is held at its second attempt: its next retry is 5 minutes away
      const heldAt = what === 'test' ? 1 : 2;
      const receiving = holdAt(`/hooks?for=${what}`, heldAt);
      let deliveryId: string;
      if (what === 'test') {
        const sent = await api.post(`${hook(id)}/test`);
        expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
        deliveryId = sent.body.deliveryId;
        await receiving.until(1);
      } else {
        await submit(world, 'Held by the receiver');
        await receiving.until(1);
        world.fb.clock.advance(5_000);
        await receiving.until(2);
        const listed = await api.get(`${hook(id)}/deliveries`);
        deliveryId = listed.body.items[0].id;
      }
      const again = await api.post(`${hook(id)}/deliveries/${deliveryId}/redeliver`);
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      receiving.release();

      const requests = await receiving.until(heldAt + 1);
      expect(new Set(requests.map((r) => r.id)).size, 'one webhook-id').to.equal(1);
      verify(secret, requests.at(-1)!);
      const path = `${hook(id)}/deliveries/${deliveryId}`;
      const delivered = await eventually(async () => {
        const { body } = await api.get(path);
        return body.delivery?.status === 'succeeded' && body;
      }, 'the redelivery to be recorded');
      expect(delivered.delivery).to.include({ attemptCount: heldAt + 1, lastResponseStatus: 204 });
      expect(
        delivered.attempts.map((a: { responseStatus: number }) => a.responseStatus),
      ).to.deep.equal([...Array(heldAt).fill(500), 204]);
    });
  }
});

/**
 * The same, asked twice with one Idempotency-Key: README, "A retry … of a delivery's latest
 * `redeliver_webhook` with the same `Idempotency-Key` answers the first delivery, sends nothing
 * and counts nothing." A retry that looked for the key before the first call had written it (a
 * client that gave up waiting and sent again) queued the delivery once more while its attempt
 * was under way, so the one request reached the receiver twice. The store holds both calls'
 * reads of the delivery, so that they meet there whatever the timing.
 */
describe('When a keyed redelivery and its retry cross while the receiver holds the attempt (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  let reads: ReturnType<typeof heldReadsIn>;
  before(async () => {
    [world, receiver] = await startWorldWith(1);
    reads = heldReadsIn(world.fb.deps().readStore, [DELIVERIES]);
  });
  after(() => stopWorld(world, receiver));

  it('sends the message again once, and answers the retry as the first', async () => {
    const api = world.fb.api(world.owner.token);
    const { id } = await subscribe(world, receiver, { eventTypes: ['webhook.test'] });
    const sent = await api.post(`${hook(id)}/test`);
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    await receiver.until(1);
    const path = `${hook(id)}/deliveries/${sent.body.deliveryId}`;
    await eventually(
      async () => (await api.get(path)).body.delivery?.status === 'succeeded',
      'the test to be delivered',
    );

    let answer = () => {};
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    receiver.answer = () => ({ status: 204, hold: held });
    const redeliver = () =>
      api.post(`${path}/redeliver`, undefined, { headers: { 'idempotency-key': 'again-1' } });
    // both look for the key before either has written it
    const met = reads.hold(DELIVERIES, 2, { answered: true });
    const first = redeliver();
    const retry = redeliver();
    const [goFirst, goRetry] = await met;
    goFirst!();
    expect((await first).status).to.equal(200);
    await receiver.until(2); // the redelivery is under way
    goRetry!();
    const retried = await retry;
    expect(retried.status, JSON.stringify(retried.body)).to.equal(200);
    expect(retried.body).to.deep.equal({ deliveryId: sent.body.deliveryId });
    answer();

    await eventually(async () => {
      const { body } = await api.get(path);
      return body.delivery?.status === 'succeeded' && body.delivery.attemptCount >= 2;
    }, 'the redelivery to be recorded');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received, 'requests the receiver got').to.have.length(2);
    const { body } = await api.get(path);
    expect(body.delivery).to.include({ status: 'succeeded', attemptCount: 2 });
  });
});
