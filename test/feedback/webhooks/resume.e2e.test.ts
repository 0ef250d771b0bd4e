/**
 * README, Webhooks: "**Re-enabling** (`update_webhook` with `enabled: true`) resumes from where
 * it stopped: every message since is delivered". The worker woke its scan on the webhook's
 * WebhookEnabled event before the read model showed it enabled, so the scan skipped it, and what
 * waited went only with the next poll for other processes' changes (every 5 s). Here that poll
 * is a minute: what was held goes when the webhook is enabled.
 */
import { expect } from 'chai';
import { verify } from './support/receiver.js';
import {
  hook,
  type Receiver,
  startWorldWith,
  stopWorld,
  submit,
  subscribe,
  type World,
} from './support/world.js';

describe('When a paused webhook is enabled again (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  before(async () => {
    [world, receiver] = await startWorldWith(1, { webhooks: { pollMs: 60_000 } });
  });
  after(() => stopWorld(world, receiver));

  it('sends what waited at once, not with the next poll', async () => {
    const api = world.fb.api(world.owner.token);
    const { id, secret } = await subscribe(world, receiver);
    for (let round = 0; round < 2; round++) {
      expect((await api.patch(hook(id), { enabled: false })).status).to.equal(200);
      const key = await submit(world, `Filed while paused ${round}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.received, 'nothing while paused').to.have.length(round);
      expect((await api.patch(hook(id), { enabled: true })).status).to.equal(200);
      const request = (await receiver.until(round + 1, 3_000))[round]!;
      const message = verify(secret, request);
      expect(message).to.deep.include({ type: 'item.created' });
      expect(message.data.itemKey).to.equal(key);
    }
  });
});
