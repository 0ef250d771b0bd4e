/**
 * README (Webhooks, "What you receive"): "`x-correlation-id`: the correlation id of the request
 * that caused the message … not signed"; (Logs, metrics) "the webhook worker logs one `webhook
 * attempt` line per attempt with that correlation id". The audit could not follow a request to
 * the deliveries it caused: the id was in the events' metadata and nowhere after. The id is the
 * server's own, the one the request was answered with (not the one the client sent).
 */
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { type LogLines, logLines } from '../../support/log-lines.js';
import {
  hook,
  item,
  type Receiver,
  startWorldWith,
  stopWorld,
  submitPath,
  subscribe,
  type World,
} from './support/world.js';

describe('When a request causes webhook deliveries (e2e)', function () {
  this.timeout(60_000);
  let world: World;
  let receiver: Receiver;
  let log: LogLines;
  let webhook: { id: string; secret: string };

  before(async () => {
    log = logLines('info');
    [world, receiver] = await startWorldWith(1, { logger: log.logger, env: { LOG_LEVEL: 'info' } });
    webhook = await subscribe(world, receiver);
  });
  after(() => stopWorld(world, receiver));

  const api = () => world.fb.api(world.owner.token);
  const traced = (id: string) => ({ headers: { 'x-correlation-id': id } });
  const answeredId = (res: { headers: Headers }) => res.headers.get('x-correlation-id');
  let statusId: string | null = null;

  it("carries each request's x-correlation-id to the delivery it caused, its signature still verifying", async () => {
    const created = await api().post(submitPath(), { body: 'Follow me' }, traced('trace-submit-1'));
    expect(created.status).to.equal(200);
    const moved = await api().post(
      `${item(created.body.itemId)}/status`,
      { status: 'planned' },
      traced('trace-status-1'),
    );
    expect(moved.status).to.equal(200);
    statusId = answeredId(moved);
    const requests = await receiver.until(2);
    const byType = new Map(
      requests.map((request) => {
        // the receiver's check of the README, given every header that came: the extra one
        // does not disturb the Standard Webhooks signature
        const message = new Webhook(webhook.secret).verify(request.body, request.headers as never);
        return [(message as { type: string }).type, request];
      }),
    );
    expect(byType.get('item.created')!.headers['x-correlation-id']).to.equal(answeredId(created));
    expect(byType.get('item.status_changed')!.headers['x-correlation-id']).to.equal(statusId);
  });

  it('logs each attempt with the correlation id, the webhook, the message and its outcome', async () => {
    const line = await log.find((l) => l.msg === 'webhook attempt' && l.correlationId === statusId);
    expect(line, 'no attempt line').to.include({
      level: 'info',
      webhook: webhook.id,
      eventType: 'item.status_changed',
      attempt: 1,
      outcome: 'delivered',
      responseStatus: 204,
    });
    expect(line!.messageId).to.match(/^msg_/);
    expect(line!.durationMs).to.be.a('number');
  });

  it('carries the correlation id of a send_test_webhook call to its message', async () => {
    const before = receiver.received.length;
    const sent = await api().post(`${hook(webhook.id)}/test`, undefined, traced('trace-test-1'));
    expect(sent.status).to.equal(200);
    const [request] = (await receiver.until(before + 1)).slice(before);
    expect(request!.headers['x-correlation-id']).to.equal(answeredId(sent));
    expect(
      new Webhook(webhook.secret).verify(request!.body, request!.headers as never),
    ).to.have.property('type', 'webhook.test');
  });
});
