/**
 * README, Webhooks: "Five days of nothing but failures disable the webhook as well." Five days
 * of them, not fewer, and nothing but them: a delivered message in between starts the count
 * again. Time is the harness clock, moved forward; every attempt is real HTTP to 127.0.0.1.
 */
import { expect } from 'chai';
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

describe('A webhook whose receiver keeps failing (e2e, simulated time)', () => {
  let world: World;
  let receiver: Receiver;
  let webhook: { id: string; secret: string };

  beforeEach(async () => {
    [world, receiver] = await startWorldWith(1);
    webhook = await subscribe(world, receiver);
  });
  afterEach(() => stopWorld(world, receiver));

  const getWebhook = async () =>
    (await world.fb.api(world.owner.token).get(hook(webhook.id))).body.webhook;
  async function jump(ms: number): Promise<void> {
    world.fb.clock.advance(ms);
    await settle(world, webhook.id);
  }

  describe('When every attempt fails for 4 days 23 hours, then past 5 days', () => {
    it('keeps the webhook enabled until the five days are over, then disables it saying why', async () => {
      receiver.answer = () => ({ status: 500 });
      await submit(world, 'Failing for days');
      await settle(world, webhook.id);
      await jump(119 * HOUR);
      const before = receiver.received.length;
      expect(before, 'an attempt failed after 119 hours').to.be.greaterThan(1);
      expect((await getWebhook()).enabled, 'enabled after 4 days 23 hours').to.equal(true);

      await jump(HOUR + 10 * 60_000);
      expect(receiver.received.length).to.be.greaterThan(before);
      const disabled = await eventually(async () => {
        const now = await getWebhook();
        return !now.enabled && now;
      }, 'the webhook to be disabled');
      expect(disabled.disabledReason).to.match(/every delivery attempt failed for 5 days/);
    });
  });

  // A test message is the maker checking the receiver; README: "Five days of nothing but
  // failures disable the webhook" counts the webhook's traffic, not the maker's tests.
  describe('When a test send failed 4 days before the first failure of a real message', () => {
    it('counts the five days from the real failure, not from the test', async () => {
      receiver.answer = () => ({ status: 500 });
      const sent = await world.fb.api(world.owner.token).post(`${hook(webhook.id)}/test`);
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      await settle(world, webhook.id);
      expect(receiver.received.length, 'the test was tried').to.equal(1);

      await jump(100 * HOUR);
      await submit(world, 'Fails from day four');
      await settle(world, webhook.id);
      // one jump runs one due retry: 130 hours after the test, 30 after the real failure
      await jump(30 * HOUR);
      expect(receiver.received.length, 'the real message was retried').to.be.greaterThan(2);
      const now = await getWebhook();
      expect(now.disabledReason, 'disabledReason').to.equal(null);
      expect(now.enabled).to.equal(true);
    });
  });

  // README: only a change that may end the failures (a new URL, re-enabling, a new secret)
  // counts the five days afresh; a new description or filter does not
  describe('When the description is edited on the third day of failures', () => {
    it('still disables the webhook five days after the first failure', async () => {
      receiver.answer = () => ({ status: 500 });
      await submit(world, 'Failing through an edit');
      await settle(world, webhook.id);
      await jump(72 * HOUR);
      const edited = await world.fb
        .api(world.owner.token)
        .patch(hook(webhook.id), { description: 'renamed while failing' });
      expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
      await jump(47 * HOUR);
      await jump(HOUR + 10 * 60_000);
      const disabled = await eventually(async () => {
        const now = await getWebhook();
        return !now.enabled && now;
      }, 'the webhook to be disabled five days after the first failure');
      expect(disabled.disabledReason).to.match(/every delivery attempt failed for 5 days/);
    });
  });

  describe('When a message is delivered on the third day of failures', () => {
    it('counts the five days afresh from the next failure', async () => {
      receiver.answer = () => ({ status: 500 });
      await submit(world, 'Fails first');
      await settle(world, webhook.id);
      receiver.answer = () => ({ status: 204 });
      await jump(72 * HOUR);
      expect(receiver.received.at(-1)?.id).to.equal(receiver.received[0]?.id);

      receiver.answer = () => ({ status: 500 });
      await submit(world, 'Fails afterwards');
      await settle(world, webhook.id);
      // 122 hours after the first failure, 50 after the delivery: far from five days of nothing
      // but failures
      await jump(50 * HOUR);
      expect(receiver.received.length).to.be.greaterThan(3);
      expect((await getWebhook()).enabled).to.equal(true);
    });
  });

  // README: "When one succeeds after failures, the receiver is taken to be back and the other
  // waiting messages are sent at once."
  describe('When a message is delivered while another waits for its retry', () => {
    it('sends the waiting one at once, without waiting for its retry time', async () => {
      receiver.answer = () => ({ status: 503, headers: { 'retry-after': '3600' } });
      const waiting = await submit(world, 'Waits an hour');
      await settle(world, webhook.id);
      receiver.answer = () => ({ status: 204 });
      await submit(world, 'Goes through');
      const [first, , again] = await receiver.until(3);
      expect(again?.id, 'the waiting message, sent again').to.equal(first?.id);
      expect(JSON.parse(again!.body).data.itemKey).to.equal(waiting);
    });
  });
});
