/**
 * README, Webhooks: "A change that may end the failures — a new URL, re-enabling, a new secret —
 * counts them afresh". Also for an attempt to the old URL that was under way as the admin set the
 * new one: its failure, at the five-days mark, says nothing about the new receiver, so it neither
 * extends the failures nor disables the webhook the admin has just fixed. Time is the harness
 * clock, moved forward; every attempt is real HTTP to 127.0.0.1.
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

describe('A webhook whose URL is changed while an attempt to the old one is under way (e2e, simulated time)', () => {
  let world: World;
  let old: Receiver;
  let fixed: Receiver;
  let webhook: { id: string; secret: string };

  beforeEach(async () => {
    [world, old, fixed] = await startWorldWith(2);
    webhook = await subscribe(world, old);
  });
  afterEach(() => stopWorld(world, old, fixed));

  const getWebhook = async () =>
    (await world.fb.api(world.owner.token).get(hook(webhook.id))).body.webhook;
  /** the attempt to the old URL is recorded, and what follows from it (a disabling) has happened */
  async function recorded(attempts: number): Promise<void> {
    await eventually(async () => {
      const { body } = await world.fb.api(world.owner.token).get(`${hook(webhook.id)}/deliveries`);
      return body.items[0]?.attemptCount >= attempts;
    }, 'the attempt to the old URL to be recorded');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await settle(world, webhook.id);
  }

  describe('When that attempt fails at the five-days mark', () => {
    it('does not disable the webhook the admin has just fixed; the message reaches the new URL', async () => {
      old.answer = () => ({ status: 500 });
      await submit(world, 'Failing for days');
      await settle(world, webhook.id);
      world.fb.clock.advance(119 * HOUR);
      await settle(world, webhook.id);
      const tried = old.received.length;
      expect(tried, 'attempts failed over 4 days 23 hours').to.be.greaterThan(1);

      // the next attempt, past five days of failures, waits at the old receiver...
      let answer = () => {};
      const held = new Promise<void>((resolve) => {
        answer = resolve;
      });
      old.answer = () => ({ status: 500, hold: held });
      world.fb.clock.advance(HOUR + 10 * 60_000);
      await old.until(tried + 1);
      // ...while the admin sets the URL the receiver moved to
      const patched = await world.fb
        .api(world.owner.token)
        .patch(hook(webhook.id), { url: fixed.url });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      answer();
      await recorded(tried + 1);

      const after = await getWebhook();
      expect(after.disabledReason, 'disabledReason after the old URL failed').to.equal(null);
      expect(after.enabled).to.equal(true);

      // the message goes to the new URL at once: the old URL's failure is no step of its retries
      await fixed.until(1);
      await settle(world, webhook.id);
      expect((await getWebhook()).enabled).to.equal(true);
    });
  });

  // README (Retries): an attempt under way as the URL was replaced "counts for neither the failures
  // nor disabling" — nor as a step of the delivery's retry schedule: the old receiver's failure
  // says nothing of the new one, so the message is due at the new URL at once, not after the
  // next, longer backoff as if the new receiver had failed
  describe('When that attempt fails while the admin sets the new URL', () => {
    it('sends the message to the new URL at once, at the step it had reached', async () => {
      let answer = () => {};
      const held = new Promise<void>((resolve) => {
        answer = resolve;
      });
      // the first attempt fails; the second (5 s later) is held, its next backoff 5 minutes
      old.answer = () => (old.received.length >= 2 ? { status: 500, hold: held } : { status: 500 });
      await submit(world, 'Sent as the receiver moves');
      await old.until(1);
      await settle(world, webhook.id);
      world.fb.clock.advance(5_000);
      await old.until(2);
      const patched = await world.fb
        .api(world.owner.token)
        .patch(hook(webhook.id), { url: fixed.url });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      answer();

      // the clock is not moved: only an attempt due now reaches the new receiver
      const [request] = await fixed.until(1, 5_000);
      expect(request!.id, 'the same webhook-id').to.equal(old.received[0]!.id);
      const api = world.fb.api(world.owner.token);
      const delivered = await eventually(async () => {
        const listed = await api.get(`${hook(webhook.id)}/deliveries`);
        const delivery = listed.body.items[0];
        if (delivery?.status !== 'succeeded') return false;
        return (await api.get(`${hook(webhook.id)}/deliveries/${delivery.id}`)).body;
      }, 'the delivery to the new URL to be recorded');
      expect(
        delivered.attempts.map((a: { responseStatus: number }) => a.responseStatus),
      ).to.deep.equal([500, 500, 204]);
      expect((await getWebhook()).enabled).to.equal(true);
    });
  });

  // README: "`410 Gone` disables the webhook" — the receiver that is gone is the old URL's
  describe('When that attempt is answered 410 Gone', () => {
    it('does not disable the webhook, and the message goes to the new URL at once', async () => {
      let answer = () => {};
      const held = new Promise<void>((resolve) => {
        answer = resolve;
      });
      old.answer = () => ({ status: 410, hold: held });
      await submit(world, 'Sent as the receiver moves');
      await old.until(1);
      const patched = await world.fb
        .api(world.owner.token)
        .patch(hook(webhook.id), { url: fixed.url });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      answer();
      await recorded(1);
      const after = await getWebhook();
      expect(after.disabledReason, 'disabledReason after the old URL answered 410').to.equal(null);
      expect(after.enabled).to.equal(true);
      await fixed.until(1);
    });
  });
});
