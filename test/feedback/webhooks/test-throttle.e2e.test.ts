/**
 * send_test_webhook is throttled (README, Webhooks): "at most 5 calls per webhook and 20 per
 * workspace in any minute (`WEBHOOK_TESTS_PER_WEBHOOK_PER_MINUTE`,
 * `WEBHOOK_TESTS_PER_WORKSPACE_PER_MINUTE`); past that it answers 429 `resource-exhausted` with
 * `Retry-After`" — the delivery log shows the first KB of what the target answered, so without
 * it an admin could probe any public host and port as fast as they could call.
 */
import { expect } from 'chai';
import {
  expectError,
  hook,
  type Receiver,
  startWorldWith,
  stopWorld,
  subscribe,
  type World,
} from './support/world.js';

const keyed = (key: string) => ({ headers: { 'idempotency-key': key } });

describe('When an admin sends test messages faster than the throttle allows (e2e)', () => {
  let world: World;
  let receiver: Receiver;

  before(async () => {
    [world, receiver] = await startWorldWith(1, {
      env: {
        WEBHOOK_TESTS_PER_WEBHOOK_PER_MINUTE: '3',
        WEBHOOK_TESTS_PER_WORKSPACE_PER_MINUTE: '5',
      },
    });
  });
  after(() => stopWorld(world, receiver));
  const api = () => world.fb.api(world.owner.token);
  const sendTest = (id: string, options?: { headers: Record<string, string> }) =>
    api().post(`${hook(id)}/test`, undefined, options);

  it('answers 429 with Retry-After past the webhook’s figure, a keyed retry still answers its delivery, and a minute later it sends again', async () => {
    const { id } = await subscribe(world, receiver);
    const first = await sendTest(id, keyed('probe-1'));
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    for (let i = 0; i < 2; i++) expect((await sendTest(id)).status).to.equal(200);

    const refused = await sendTest(id);
    expectError(refused, 429, 'resource-exhausted');
    expect(refused.body.error).to.match(/too many test messages/);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait, 'Retry-After').to.be.within(1, 60);

    // a retry of a send that was taken sends nothing new, so it spends nothing and is answered
    const retry = await sendTest(id, keyed('probe-1'));
    expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
    expect(retry.body.deliveryId).to.equal(first.body.deliveryId);
    const log = await api().get(`${hook(id)}/deliveries`);
    expect(log.body.items, 'deliveries made').to.have.length(3);

    world.fb.clock.advance(wait * 1000);
    expect((await sendTest(id)).status, 'after Retry-After').to.equal(200);
  });

  it('answers 429 past the workspace’s figure, over all its webhooks', async () => {
    world.fb.clock.advance(60_000); // the first test's sends are out of every window
    const one = await subscribe(world, `${receiver.url}?n=1`);
    const two = await subscribe(world, `${receiver.url}?n=2`);
    for (let i = 0; i < 3; i++) expect((await sendTest(one.id)).status).to.equal(200);
    for (let i = 0; i < 2; i++) expect((await sendTest(two.id)).status).to.equal(200);
    // the second webhook has sent two of its three: the workspace's five are spent
    expectError(await sendTest(two.id), 429, 'resource-exhausted');
  });
});
