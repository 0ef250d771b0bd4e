/**
 * README (Webhooks, "Verifying and answering"): "An attempt our own stop cuts (the process
 * shutting down … while your receiver still holds the request) is not your receiver's failure:
 * it is not in the delivery log and does not count toward the five days of failures; the
 * message is sent again, with the same `webhook-id`, once a worker delivers again (after the
 * next start)." The audit found such an attempt recorded as the receiver's failure, a step
 * toward disabling its webhook.
 */
import { expect } from 'chai';
import { type LogLines, logLines } from '../../support/log-lines.js';
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

describe('When the service stops while a receiver holds a delivery open (e2e)', function () {
  this.timeout(60_000);
  let world: World;
  let receiver: Receiver;
  let log: LogLines;
  let release: () => void = () => {};

  before(async () => {
    log = logLines('info');
    [world, receiver] = await startWorldWith(1, { logger: log.logger, env: { LOG_LEVEL: 'info' } });
  });
  after(async () => {
    release();
    await stopWorld(world, receiver);
  });

  it('records nothing against the receiver and sends the message again after the start', async () => {
    const webhook = await subscribe(world, receiver);
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    receiver.answer = () => ({ status: 204, hold: held });
    await submit(world, 'Sent while the service stops');
    const [first] = await receiver.until(1);
    receiver.answer = () => ({ status: 204 });

    await world.fb.restart(); // a real stop, mid-POST: the receiver has not answered

    // the receiver's failure streak (five days of it disable the webhook) did not start
    const hookKey = `${world.ws.workspaceId}.${webhook.id}`;
    const health = await world.fb.runtime.runtime.stores.readStore
      .collection<{ _id: string; failingSince: number | null }>('webhook_health')
      .findOne({ _id: hookKey });
    expect(health?.failingSince ?? null, 'a failure streak was recorded').to.equal(null);

    const [, again] = await receiver.until(2);
    expect(again!.id).to.equal(first!.id);
    expect(verify(webhook.secret, again!).data.messageId).to.equal(first!.id);
    const api = world.fb.api(world.owner.token);
    const [delivery] = (await api.get(`${hook(webhook.id)}/deliveries`)).body.items;
    const detail = (await api.get(`${hook(webhook.id)}/deliveries/${delivery.id}`)).body;
    // one attempt: the one the receiver answered; the cut one is nobody's failure
    expect(detail.delivery).to.include({ status: 'succeeded', attemptCount: 1 });
    expect(detail.attempts.map((a: { status: string }) => a.status)).to.deep.equal(['succeeded']);
    expect(
      await log.find(
        (l) => l.msg === 'webhook attempt cut by the stop; it is sent again after the next start',
      ),
    ).to.include({ level: 'info', webhook: webhook.id, messageId: first!.id });
  });
});
