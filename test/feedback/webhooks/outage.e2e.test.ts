/**
 * Issue 18, "Delivery": retries on Svix's schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h),
 * at-least-once with a stable `webhook-id`, 429/503 Retry-After, 410 disables, five days of
 * failures disable, re-enabling resumes from where it stopped. Time is the harness clock, moved
 * forward; every attempt is real HTTP to a receiver on 127.0.0.1.
 *
 * "Must show": "The receiver down (connection refused, then 500s) for a simulated day: when it
 * comes back every message arrives, each with the `webhook-id` of its first attempt, in per-item
 * `sequence` order or with the gap visible; the delivery log shows each attempt."
 */
import { expect } from 'chai';
import { verify } from './support/receiver.js';
import {
  eventually,
  hook,
  HOUR,
  item,
  type Receiver,
  settle,
  startWorldWith,
  stopWorld,
  submit,
  subscribe,
  type World,
} from './support/world.js';

describe('Webhook delivery while the receiver is down (e2e, simulated time)', () => {
  let world: World;
  let receiver: Receiver;
  let webhook: { id: string; secret: string };

  beforeEach(async () => {
    [world, receiver] = await startWorldWith(1);
    webhook = await subscribe(world, receiver);
  });
  afterEach(() => stopWorld(world, receiver));

  const api = () => world.fb.api(world.owner.token);
  const deliveries = async () =>
    (await api().get(`${hook(webhook.id)}/deliveries?pageSize=200`)).body.items as any[];
  const getWebhook = async () => (await api().get(hook(webhook.id))).body.webhook;
  /** move the clock in steps, letting every due attempt happen at each */
  async function live(hours: number, stepHours = 1, during?: (hour: number) => Promise<void>) {
    for (let h = 1; h <= hours / stepHours; h++) {
      world.fb.clock.advance(stepHours * HOUR);
      await during?.(h * stepHours);
      await settle(world, webhook.id);
    }
  }

  describe('When it refuses connections, then answers 500, for a day', () => {
    it('delivers every message once it is back, under the webhook-id of its first attempt, with each attempt logged', async function () {
      this.timeout(120_000);
      await receiver.down();
      const first = await submit(world, 'Export to CSV');
      let second = '';
      await settle(world, webhook.id);
      await live(6, 1, async (hour) => {
        if (hour === 2) await api().post(`${item(first)}/status`, { status: 'planned' });
        if (hour === 4) second = await submit(world, 'Keyboard shortcuts');
      });
      await receiver.up();
      receiver.answer = () => ({ status: 500, body: 'database is down' });
      await live(18, 1, async (hour) => {
        if (hour === 2) await api().post(`${item(first)}/replies`, { body: 'Soon' });
        if (hour === 6) await api().post(`${item(second)}/tags`, { tagIds: ['ux'] });
      });
      const answered500 = receiver.received.length;
      expect(answered500).to.be.greaterThan(0);

      receiver.answer = () => ({ status: 204 });
      await live(20, 10);

      const log = await deliveries();
      expect(log).to.have.length(5);
      expect(log.map((d) => d.status)).to.deep.equal(Array(5).fill('succeeded'));
      // every message arrived and verified; every request for a message, from the 500s to the
      // one that succeeded, carried the id of its first attempt: the message's own id
      const byId = new Map<string, any>();
      for (const request of receiver.received) {
        const message = verify(webhook.secret, request);
        expect(request.id).to.equal(message.data.messageId);
        byId.set(request.id, message);
      }
      expect([...byId.keys()].sort()).to.deep.equal(log.map((d) => d.messageId).sort());
      const lateIds = new Set(receiver.received.slice(answered500).map((r) => r.id));
      for (const early of receiver.received.slice(0, answered500)) {
        expect(lateIds.has(early.id), 'a refused message is sent again under its id').to.equal(
          true,
        );
      }
      // per item, the sequences that arrived leave no gap
      const perItem = new Map<string, number[]>();
      for (const message of byId.values()) {
        perItem.set(message.data.itemKey, [
          ...(perItem.get(message.data.itemKey) ?? []),
          message.data.sequence,
        ]);
      }
      expect(perItem.get(first)?.sort()).to.deep.equal([0, 1, 2]);
      expect(perItem.get(second)?.sort()).to.deep.equal([0, 1]);
      // the log shows each attempt: refused and 500 ones failed, the last one succeeded
      for (const delivery of log) {
        const detail = (await api().get(`${hook(webhook.id)}/deliveries/${delivery.id}`)).body;
        expect(detail.attempts).to.have.length(detail.delivery.attemptCount);
        expect(detail.attempts.length).to.be.greaterThan(1);
        const last = detail.attempts.at(-1);
        expect(last).to.include({ status: 'succeeded', responseStatus: 204 });
        for (const failed of detail.attempts.slice(0, -1)) {
          expect(failed.status).to.equal('failed');
          if (failed.responseStatus === null) expect(failed.error).to.match(/ECONNREFUSED/);
          else {
            expect(failed.responseStatus).to.equal(500);
            expect(failed.responseBodyExcerpt).to.equal('database is down');
          }
        }
      }
      // the first item's message waited through its whole schedule: 5 s, 5 min, 30 min, 2 h, ...
      const createdFirst = log.find((d) => d.eventType === 'item.created' && d.attemptCount > 6);
      expect(createdFirst, 'a message retried across the day').to.not.equal(undefined);
    });
  });

  describe('When the receiver answers 429 or 503 with Retry-After', () => {
    it('waits at least that long before the next attempt', async () => {
      receiver.answer = () => ({ status: 429, headers: { 'retry-after': '3600' } });
      await submit(world, 'Rate limited');
      await settle(world, webhook.id);
      const [limited] = await deliveries();
      expect(limited.nextAttemptAt - limited.lastAttemptAt).to.be.at.least(3600_000);
      receiver.answer = () => ({
        status: 503,
        headers: { 'retry-after': new Date(world.fb.clock.now() + 2 * HOUR).toUTCString() },
      });
      world.fb.clock.advance(HOUR + 1000);
      await settle(world, webhook.id);
      const [unavailable] = await deliveries();
      expect(unavailable.attemptCount).to.equal(2);
      expect(unavailable.nextAttemptAt - unavailable.lastAttemptAt).to.be.at.least(2 * HOUR - 2000);
    });
  });

  describe('When the receiver answers 410 Gone', () => {
    it('disables the webhook with the reason, keeps the message, and sends it all once re-enabled', async () => {
      receiver.answer = () => ({ status: 410 });
      const first = await submit(world, 'Gone soon');
      await settle(world, webhook.id);
      await eventually(async () => !(await getWebhook()).enabled, 'the webhook to be disabled');
      const disabled = await getWebhook();
      expect(disabled.disabledReason).to.match(/410 Gone/);
      // while disabled nothing is sent
      const sent = receiver.received.length;
      await api().post(`${item(first)}/status`, { status: 'shipped' });
      await settle(world, webhook.id);
      expect(receiver.received).to.have.length(sent);

      receiver.answer = () => ({ status: 204 });
      const enabled = await api().patch(hook(webhook.id), { enabled: true });
      expect(enabled.body.webhook).to.include({ enabled: true, disabledReason: null });
      await eventually(
        async () => (await deliveries()).every((d) => d.status === 'succeeded'),
        'both messages to be delivered',
      );
      const types = receiver.received.slice(sent).map((r) => verify(webhook.secret, r).type);
      expect(types.sort()).to.deep.equal(['item.created', 'item.status_changed']);
    });
  });

  describe('When every attempt fails for five days', () => {
    it('disables the webhook saying why; re-enabling resumes and recover_webhook requeues the failed', async function () {
      this.timeout(120_000);
      const started = world.fb.clock.now();
      receiver.answer = () => ({ status: 500 });
      const key = await submit(world, 'Flaky receiver');
      await settle(world, webhook.id);
      // a new message every 12 hours keeps attempts coming for the whole five days
      for (let half = 1; half <= 10; half++) {
        await live(12, 4);
        if ((await getWebhook()).enabled) {
          await api().post(`${item(key)}/tags`, { tagIds: [`day-${half}`] });
        }
      }
      await live(12, 4);
      const disabled = await getWebhook();
      expect(disabled.enabled).to.equal(false);
      expect(disabled.disabledReason).to.match(/every delivery attempt failed for 5 days/);
      const failed = (await deliveries()).filter((d) => d.status === 'failed');
      expect(failed.length, 'messages whose eight attempts ran out').to.be.greaterThan(0);

      receiver.answer = () => ({ status: 204 });
      const resumed = await api().patch(hook(webhook.id), { enabled: true });
      expect(resumed.body.webhook.disabledReason).to.equal(null);
      await eventually(
        async () => (await deliveries()).every((d) => d.status !== 'pending'),
        'the pending messages to be delivered',
      );
      const recover = await api().post(`${hook(webhook.id)}/recover`, { since: started });
      expect(recover.status).to.equal(200);
      expect(recover.body.queued).to.equal(failed.length);
      await eventually(
        async () => (await deliveries()).every((d) => d.status === 'succeeded'),
        'every message to be delivered',
      );
      // every message of the item arrived under its one id; their sequences leave no gap
      const log = await deliveries();
      const arrived = new Map<string, number>();
      for (const request of receiver.received) {
        arrived.set(request.id, verify(webhook.secret, request).data.sequence);
      }
      expect([...arrived.keys()].sort()).to.deep.equal(log.map((d) => d.messageId).sort());
      const sequences = [...arrived.values()].sort((a, b) => a - b);
      expect(sequences).to.deep.equal(sequences.map((_, i) => i));
    });
  });

  describe('When an admin redelivers a delivered message', () => {
    it('sends it again under the same webhook-id and logs a second attempt', async () => {
      await submit(world, 'Send me twice');
      await receiver.until(1);
      await settle(world, webhook.id);
      const [delivery] = await deliveries();
      const res = await api().post(`${hook(webhook.id)}/deliveries/${delivery.id}/redeliver`);
      expect(res.status).to.equal(200);
      expect(res.body.deliveryId).to.equal(delivery.id);
      const [one, two] = await receiver.until(2);
      expect(two!.id).to.equal(one!.id);
      const detail = (await api().get(`${hook(webhook.id)}/deliveries/${delivery.id}`)).body;
      expect(detail.delivery).to.include({ status: 'succeeded', attemptCount: 2 });
    });
  });
});
