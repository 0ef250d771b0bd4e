/**
 * README, Webhooks: "`send_test_webhook` and `redeliver_webhook` together take at most 5 calls per
 * webhook and 20 per workspace in any minute …, and 20 per account over all its workspaces; past
 * that they answer 429 `resource-exhausted` with `Retry-After`" and "`recover_webhook` counts
 * every delivery it queues again … Past that it queues the oldest that fit and answers how many
 * it `queued` and how many are `left` failed … and with no room at all answers 429 with
 * `Retry-After`." Each sends to the webhook's URL now and the delivery log shows the first KB of
 * the answer: after update_webhook changes the URL, an unbounded redelivery probes any host, and
 * one recover sent every failed delivery at once.
 */
import { expect } from 'chai';
import {
  eventually,
  expectError,
  HOUR,
  hook,
  hooks,
  type Receiver,
  settle,
  startWorldWith,
  stopWorld,
  submit,
  subscribe,
  type World,
} from './support/world.js';

const MINUTE = 60_000;

describe('When an admin sends again faster than the throttle allows (e2e)', () => {
  let world: World;
  let receiver: Receiver;

  before(async () => {
    [world, receiver] = await startWorldWith(1, {
      env: {
        WEBHOOK_TESTS_PER_WEBHOOK_PER_MINUTE: '3',
        WEBHOOK_TESTS_PER_WORKSPACE_PER_MINUTE: '4',
      },
    });
  });
  beforeEach(() => world.fb.clock.advance(MINUTE)); // the last test's sends are out of every window
  after(() => stopWorld(world, receiver));
  const api = () => world.fb.api(world.owner.token);
  const sendTest = (path: string) => api().post(`${path}/test`);
  const deliveryOf = async (path: string, id: string) =>
    (await api().get(`${path}/deliveries/${id}`)).body.delivery;

  it('answers a redelivery retried with its Idempotency-Key as the first: not sent again, not counted', async () => {
    // OpenAPI, every write: "the same key on the same resource returns the first result instead
    // of writing again"
    receiver.answer = () => ({ status: 204 });
    const { id } = await subscribe(world, receiver);
    const sent = await sendTest(hook(id));
    const path = `${hook(id)}/deliveries/${sent.body.deliveryId}/redeliver`;
    await eventually(
      async () => (await deliveryOf(hook(id), sent.body.deliveryId)).attemptCount === 1,
      'the test sent',
    );
    const keyed = { headers: { 'idempotency-key': 'redeliver-1' } };
    const first = await api().post(path, undefined, keyed);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    await eventually(
      async () => (await deliveryOf(hook(id), sent.body.deliveryId)).attemptCount === 2,
      'the redelivery sent',
    );
    // a test and a redelivery spent 2 of 3: the retries spend nothing, so one more goes through
    for (let i = 0; i < 3; i++) {
      const retry = await api().post(path, undefined, keyed);
      expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
      expect(retry.body).to.deep.equal(first.body);
    }
    expect((await api().post(path)).status, 'the third send of the minute').to.equal(200);
    await eventually(
      async () => (await deliveryOf(hook(id), sent.body.deliveryId)).attemptCount === 3,
      'the unkeyed redelivery sent',
    );
    // and the retries sent nothing: three attempts in all
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await deliveryOf(hook(id), sent.body.deliveryId)).attemptCount).to.equal(3);
  });

  it('counts redeliveries with test messages per webhook: past the figure 429, and nothing is sent', async () => {
    receiver.answer = () => ({ status: 204 });
    const { id } = await subscribe(world, receiver);
    const sent = await sendTest(hook(id));
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    const redeliver = () => api().post(`${hook(id)}/deliveries/${sent.body.deliveryId}/redeliver`);
    const attempts = (count: number) =>
      eventually(
        async () => (await deliveryOf(hook(id), sent.body.deliveryId)).attemptCount === count,
        `attempt ${count}`,
      );
    await attempts(1);
    for (const count of [2, 3]) {
      expect((await redeliver()).status).to.equal(200);
      await attempts(count);
    }

    const refused = await redeliver();
    expectError(refused, 429, 'resource-exhausted');
    expect(refused.body.error).to.match(/too many redeliveries/);
    expect(Number(refused.headers.get('retry-after')), 'Retry-After').to.be.within(1, 60);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await deliveryOf(hook(id), sent.body.deliveryId)).to.include({ attemptCount: 3 });
    expectError(await sendTest(hook(id)), 429, 'resource-exhausted');
  });

  it('counts a caller over all their workspaces: an admin of two sends no more than of one', async () => {
    receiver.answer = () => ({ status: 204 });
    await world.fb.createWorkspace(world.owner, { slug: 'beta-co', name: 'Beta' });
    const here = await subscribe(world, `${receiver.url}?here`);
    const there = await api().post(hooks('beta-co'), { url: `${receiver.url}?there` });
    expect(there.status, JSON.stringify(there.body)).to.equal(200);
    const elsewhere = hook(there.body.webhook.id, 'beta-co');

    for (let i = 0; i < 3; i++) expect((await sendTest(hook(here.id))).status).to.equal(200);
    expect((await sendTest(elsewhere)).status).to.equal(200);
    // beta-co has sent one of its four, its webhook one of three: the caller's four are spent
    const refused = await sendTest(elsewhere);
    expectError(refused, 429, 'resource-exhausted');
  });
});

/**
 * The recover half of the throttle, in a world of its own: the deliveries it queues again are an
 * item's messages whose eight attempts ran out (about 27.6 hours of the harness clock), as a
 * failed test message is no longer recovered (recover.e2e.test.ts).
 */
describe('When an admin recovers more failed deliveries than the throttle allows (e2e)', () => {
  let world: World;
  let receiver: Receiver;

  before(async () => {
    [world, receiver] = await startWorldWith(1, {
      env: {
        WEBHOOK_RECOVERED_PER_WEBHOOK_PER_MINUTE: '3',
        WEBHOOK_RECOVERED_PER_WORKSPACE_PER_MINUTE: '4',
      },
    });
  });
  after(() => stopWorld(world, receiver));
  const api = () => world.fb.api(world.owner.token);
  const deliveryOf = async (path: string, id: string) =>
    (await api().get(`${path}/deliveries/${id}`)).body.delivery;

  it('counts each delivery a recover queues: the oldest that fit, the rest left, then 429', async function () {
    this.timeout(120_000);
    receiver.answer = () => ({ status: 500 });
    const { id } = await subscribe(world, receiver);
    for (let i = 1; i <= 5; i++) {
      await submit(world, `Filed while the receiver fails, ${i}`);
      world.fb.clock.advance(MINUTE);
    }
    await settle(world, id);
    for (let hour = 0; hour < 30; hour++) {
      world.fb.clock.advance(HOUR);
      await settle(world, id);
    }
    const listed = (await api().get(`${hook(id)}/deliveries?status=failed`)).body.items as {
      id: string;
    }[];
    expect(listed, 'five failed deliveries').to.have.length(5);
    const failed = listed.map((d) => d.id as string).reverse(); // oldest first

    receiver.answer = () => ({ status: 204 });
    const recover = () => api().post(`${hook(id)}/recover`, { since: 0 });
    const first = await recover();
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.deep.equal({ queued: 3, left: 2 });
    const queued = await Promise.all(failed.map((d) => deliveryOf(hook(id), d)));
    expect(queued.map((d) => d.status !== 'failed')).to.deep.equal([
      true,
      true,
      true,
      false,
      false,
    ]);

    const refused = await recover();
    expectError(refused, 429, 'resource-exhausted');
    expect(Number(refused.headers.get('retry-after')), 'Retry-After').to.be.within(1, 60);

    world.fb.clock.advance(MINUTE);
    expect((await recover()).body).to.deep.equal({ queued: 2, left: 0 });
  });
});
