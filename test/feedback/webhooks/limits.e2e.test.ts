/**
 * How many webhooks a workspace may have. Every message fans out to each of them, so the count
 * is bounded: `WEBHOOKS_PER_WORKSPACE` (README: "create_webhook answers 409 past it").
 */
import { expect } from 'chai';
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

describe('The number of webhooks a workspace may have (e2e)', () => {
  let world: World;
  let receiver: Receiver;

  before(async () => {
    [world, receiver] = await startWorldWith(1, { env: { WEBHOOKS_PER_WORKSPACE: '2' } });
  });
  after(() => stopWorld(world, receiver));
  const api = () => world.fb.api(world.owner.token);

  it('refuses one more than WEBHOOKS_PER_WORKSPACE with 409, and takes one again after a delete', async () => {
    const first = await subscribe(world, receiver);
    await subscribe(world, receiver);
    const third = await api().post(hooks(), { url: receiver.url });
    expectError(third, 409, 'failed-precondition');
    expect(third.body.error).to.include('the most it may have');
    expect((await api().get(hooks())).body.items).to.have.length(2);

    expect((await api().del(hook(first.id))).status).to.equal(204);
    expect((await api().post(hooks(), { url: receiver.url })).status).to.equal(200);
  });

  it('holds for creations sent at once: 20 concurrent create_webhook calls make 2', async () => {
    for (const { id } of (await api().get(hooks())).body.items) await api().del(hook(id));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api().post(hooks(), { url: `${receiver.url}?n=${i}` })),
    );
    const count = (status: number) => answers.filter((answer) => answer.status === status).length;
    expect({ created: count(200), refused: count(409) }).to.eql({ created: 2, refused: 18 });
    expect((await api().get(hooks())).body.items).to.have.length(2);
  });
});
