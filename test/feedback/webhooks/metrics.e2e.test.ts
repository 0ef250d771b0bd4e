/**
 * README, Running on KurrentDB + MongoDB, "Probes of the workers": "`/metrics` carries … for
 * webhooks `webhook_worker_delivering`, `webhook_worker_checkpoint_position` and
 * `webhook_delivery_attempt_duration_seconds` per outcome (delivered, failed, gone) and
 * `webhook_deliveries_pending` — these four also on the services of `npm start`, which runs the
 * worker."
 */
import { expect } from 'chai';
import {
  eventually,
  type Receiver,
  startWorldWith,
  stopWorld,
  submit,
  subscribe,
  type World,
} from './support/world.js';

const count = (text: string, outcome: string) =>
  Number(
    new RegExp(
      `webhook_delivery_attempt_duration_seconds_count\\{outcome="${outcome}"\\} (\\d+)`,
    ).exec(text)?.[1] ?? 0,
  );

describe('Webhook delivery metrics of the worker (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  before(async () => {
    [world, receiver] = await startWorldWith(1);
    // 503 with a Retry-After of an hour for one message: a failed attempt, not retried here
    receiver.answer = (request) =>
      request.body.includes('Refused')
        ? { status: 503, headers: { 'Retry-After': '3600' } }
        : { status: 204 };
    await subscribe(world, receiver);
  });
  after(() => stopWorld(world, receiver));

  describe('When one message is delivered and the receiver refuses another', () => {
    it('counts each attempt under its outcome, and shows the worker delivering', async () => {
      await submit(world, 'Delivered fine');
      await submit(world, 'Refused by the receiver');
      const received = await receiver.until(2);
      const delivered = received.filter((r) => !r.body.includes('Refused')).length;
      const text = await eventually(async () => {
        const scraped = await (await fetch(`${world.fb.url}/metrics`)).text();
        return (
          count(scraped, 'failed') === 1 && count(scraped, 'delivered') === delivered && scraped
        );
      }, 'both attempts to be counted');
      expect(count(text, 'gone')).to.equal(0);
      expect(text).to.include('webhook_worker_delivering 1\n');
      expect(text).to.match(/webhook_worker_checkpoint_position [1-9]\d*\n/);
      // the refused message waits an hour for its retry: one delivery pending
      expect(text).to.include('webhook_deliveries_pending 1\n');
    });
  });
});
