/**
 * Which answer wins when a feedback request (no resource here carries an ETag) sends an If-Match
 * that cannot hold, over real HTTP. RFC 9110 §13.2.1: "A server MUST ignore all received
 * preconditions if its response to the same request without those conditions, prior to
 * processing the request content, would have been a status code other than a 2xx (Successful)
 * or 412"; §13.1.1: "An origin server MUST NOT perform the requested method if a received
 * If-Match condition evaluates to false". So a missing item answers 404, an item whose state
 * refuses the change answers that refusal, and an existing one answers 412 with nothing written
 * — for the writes the event log holds and for those it does not (webhook deliveries).
 */
import { expect } from 'chai';
import {
  expectError,
  hook,
  hooks,
  item,
  type Receiver,
  settle,
  startWorldWith,
  stopWorld,
  type World,
} from '../webhooks/support/world.js';

const NOT_A_TAG = { 'if-match': '"abc"' };

describe('When a feedback request whose If-Match cannot hold would be refused without it (e2e)', function () {
  this.timeout(60_000);
  let world: World;
  let receiver: Receiver;
  let existing: string;
  const missing = item('APP-999');
  const api = () => world.fb.api(world.owner.token);

  before(async () => {
    [world, receiver] = await startWorldWith(1);
    existing = item((await world.fb.submit(world.ws, 'APP', { body: 'Dark mode' })).itemKey);
  });
  after(() => stopWorld(world, receiver));

  it('answers a status change of a missing item 404, not 412', async () => {
    const res = await api().post(
      `${missing}/status`,
      { status: 'planned' },
      { headers: NOT_A_TAG },
    );
    expectError(res, 404, 'not-found');
  });

  it('answers an edit, a reply and a read of a missing item 404', async () => {
    expectError(
      await api().patch(missing, { title: 'x' }, { headers: NOT_A_TAG }),
      404,
      'not-found',
    );
    const reply = await api().post(`${missing}/replies`, { body: 'hi' }, { headers: NOT_A_TAG });
    expectError(reply, 404, 'not-found');
    expectError(await api().get(missing, { headers: NOT_A_TAG }), 404, 'not-found');
  });

  it('answers 412 for the existing item and writes nothing', async () => {
    const res = await api().post(
      `${existing}/status`,
      { status: 'planned' },
      { headers: NOT_A_TAG },
    );
    expectError(res, 412, 'failed-precondition');
    const reply = await api().post(`${existing}/replies`, { body: 'hi' }, { headers: NOT_A_TAG });
    expectError(reply, 412, 'failed-precondition');
    const now = (await api().get(existing)).body.item;
    expect(now.status).to.equal('new');
    expect((await api().get(`${existing}/replies`)).body.items).to.deep.equal([]);
  });

  it('keeps the refusal of an item merged into another (400) before the 412', async () => {
    const survivor = (await world.fb.submit(world.ws, 'APP', { body: 'Night theme' })).itemKey;
    const merged = (await world.fb.submit(world.ws, 'APP', { body: 'Dark theme' })).itemKey;
    const merge = await api().post(`${item(survivor)}/merge`, { mergedKeys: [merged] });
    expect(merge.status, JSON.stringify(merge.body)).to.equal(200);
    const res = await api().post(
      `${item(merged)}/status`,
      { status: 'planned' },
      { headers: NOT_A_TAG },
    );
    expectError(res, 400, 'invalid-argument');
  });

  // merge_items writes several streams: every item is found before the first command, so a
  // missing duplicate answers 404 even though the first mark would have been refused 412
  it('answers a merge with a missing duplicate 404, and of existing items 412 merging nothing', async () => {
    const survivor = (await world.fb.submit(world.ws, 'APP', { body: 'Offline mode' })).itemKey;
    const other = (await world.fb.submit(world.ws, 'APP', { body: 'Work offline' })).itemKey;
    const merge = (mergedKeys: string[]) =>
      api().post(`${item(survivor)}/merge`, { mergedKeys }, { headers: NOT_A_TAG });
    expectError(await merge([other, 'APP-999']), 404, 'not-found');
    expectError(await merge([other]), 412, 'failed-precondition');
    expect((await api().get(item(other))).body.item.status).to.equal('new');
    expect((await api().get(item(survivor))).body.item.status).to.equal('new');
  });

  describe('on writes outside the event log (webhook deliveries)', () => {
    let webhookId: string;
    let delivery: string;
    const deliveries = () => `${hook(webhookId)}/deliveries`;
    before(async () => {
      webhookId = (await api().post(hooks(), { url: receiver.url })).body.webhook.id;
      delivery = (await api().post(`${hook(webhookId)}/test`)).body.deliveryId;
    });

    it('answers a redelivery of a missing delivery 404 and of an existing one 412', async () => {
      const unknown = `${deliveries()}/dlv_aaaaaaaaaaaaaaaaaaaaaaaa/redeliver`;
      expectError(await api().post(unknown, undefined, { headers: NOT_A_TAG }), 404, 'not-found');
      await settle(world, webhookId);
      const before = (await api().get(`${deliveries()}/${delivery}`)).body;
      const known = `${deliveries()}/${delivery}/redeliver`;
      expectError(
        await api().post(known, undefined, { headers: NOT_A_TAG }),
        412,
        'failed-precondition',
      );
      // not queued again: the delivery (its status, next attempt, attempts) is as it was
      expect((await api().get(`${deliveries()}/${delivery}`)).body).to.deep.equal(before);
    });

    it('answers a test message to a missing webhook 404 and to an existing one 412, queuing nothing', async () => {
      const unknown = `${hooks()}/wh_${'a'.repeat(32)}/test`;
      expectError(await api().post(unknown, undefined, { headers: NOT_A_TAG }), 404, 'not-found');
      const test = await api().post(`${hook(webhookId)}/test`, undefined, { headers: NOT_A_TAG });
      expectError(test, 412, 'failed-precondition');
      expect(
        (await api().get(deliveries())).body.items.map((d: { id: string }) => d.id),
      ).to.deep.equal([delivery]);
    });
  });
});
