/**
 * Issue 18, "Must show": "A receiver that verifies every delivery with the `standardwebhooks`
 * package receives `item.created`, `item.status_changed` and `item.replied` with the documented
 * body after the matching API calls; filters by type and product hold."
 */
import { expect } from 'chai';
import { verify } from './support/receiver.js';
import {
  eventually,
  hook,
  item,
  type Receiver,
  startWorldWith,
  stopWorld,
  submit,
  subscribe,
  type World,
} from './support/world.js';

describe('Outbound webhooks to a receiver that verifies them (e2e)', () => {
  let world: World;
  let all: Receiver;
  let filtered: Receiver;
  let allHook: { id: string; secret: string };
  let filteredHook: { id: string; secret: string };

  before(async () => {
    [world, all, filtered] = await startWorldWith(2);
    allHook = await subscribe(world, all, { description: 'everything' });
    filteredHook = await subscribe(world, filtered, {
      eventTypes: ['item.replied'],
      productKeys: ['WEB'],
    });
  });
  after(() => stopWorld(world, all, filtered));

  describe('When an item is captured, moved to planned and replied to over the API', () => {
    let itemKey: string;
    let messages: any[];

    before(async () => {
      const api = world.fb.api(world.owner.token);
      itemKey = await submit(world, 'Dark mode please');
      expect((await api.post(`${item(itemKey)}/status`, { status: 'planned' })).status).to.equal(
        200,
      );
      expect((await api.post(`${item(itemKey)}/replies`, { body: 'On it!' })).status).to.equal(200);
      const got = await all.until(3);
      messages = got.map((request) => verify(allHook.secret, request));
      messages.sort((a, b) => a.data.sequence - b.data.sequence);
    });

    it('delivers item.created, item.status_changed and item.replied, each verifying', () => {
      expect(messages.map((m) => m.type)).to.deep.equal([
        'item.created',
        'item.status_changed',
        'item.replied',
      ]);
    });

    it('sends the Standard Webhooks headers: webhook-id is the message id, JSON, our user agent', () => {
      for (const request of all.received.slice(0, 3)) {
        const body = JSON.parse(request.body);
        expect(request.headers['webhook-id']).to.equal(body.data.messageId);
        expect(request.headers['webhook-id']).to.match(/^msg_[0-9a-f]{32}$/);
        expect(request.headers['webhook-timestamp']).to.match(/^\d{10}$/);
        expect(request.headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
        expect(request.headers['content-type']).to.equal('application/json');
        // README: "`user-agent: FeedbackBoard-Webhooks/1.0`"
        expect(request.headers['user-agent']).to.equal('FeedbackBoard-Webhooks/1.0');
      }
    });

    it('carries the documented body: type, ISO timestamp, and data naming workspace, item, order, actor and via', async () => {
      const [created] = messages;
      expect(created).to.have.all.keys('type', 'timestamp', 'data');
      expect(new Date(created.timestamp).toISOString()).to.equal(created.timestamp);
      expect(created.data).to.include({
        workspace: 'acme-co',
        productKey: 'APP',
        itemKey,
        sequence: 0,
        via: 'pat:laptop',
      });
      expect(created.data.position).to.match(/^\d+$/);
      expect(created.data.actor).to.deep.equal({
        kind: 'maker',
        id: world.owner.userId,
        name: 'owner',
      });
      // positions order the whole log; sequences order one item
      expect(messages.map((m) => m.data.sequence)).to.deep.equal([0, 1, 2]);
      expect(BigInt(messages[2].data.position) > BigInt(messages[0].data.position)).to.equal(true);
    });

    it('carries the Item record after each change, and what changed', async () => {
      const [created, changed, replied] = messages;
      expect(created.data.item.status).to.equal('new');
      expect(created.data.item.replyCount).to.equal(0);
      expect(changed.data.previousStatus).to.equal('new');
      expect(changed.data.item.status).to.equal('planned');
      expect(changed.data.item.replyCount).to.equal(0);
      const now = await world.fb.api(world.owner.token).get(item(itemKey));
      // the last message's item is exactly what get_item shows now
      expect(replied.data.item).to.deep.equal(now.body.item);
      expect(replied.data.reply).to.deep.equal(now.body.replies[0]);
      expect(replied.data.reply.body).to.equal('On it!');
    });
  });

  describe('When a receiver wants to show the item to a person', () => {
    it('links each message to get_item and, while the product is public, to its board page', async () => {
      const api = world.fb.api(world.owner.token);
      const before = all.received.length;
      const publicKey = await submit(world, 'Linked from chat', 'APP');
      expect(
        (await api.patch('/v1/workspaces/acme-co/products/WEB', { visibility: 'private' })).status,
      ).to.equal(200);
      const privateKey = await submit(world, 'Internal only', 'WEB');
      const got = (await all.until(before + 2)).slice(before);
      const byKey = new Map(
        got.map((r) => verify(allHook.secret, r)).map((m) => [m.data.itemKey, m]),
      );
      const shown = byKey.get(publicKey)!.data.links;
      expect(shown).to.have.all.keys('api', 'board');
      // the API link is get_item itself: it answers the item the message carries
      const got1 = await fetch(shown.api, {
        headers: { authorization: `Bearer ${world.owner.token}` },
      });
      expect(got1.status).to.equal(200);
      expect(((await got1.json()) as { item: { id: string } }).item.id).to.equal(publicKey);
      expect(shown.api).to.equal(`${world.fb.url}${item(publicKey)}`);
      // the board link opens the item's public page
      const page = await fetch(shown.board);
      expect(page.status).to.equal(200);
      expect(await page.text()).to.include('Linked from chat');
      // a private product has no public page to send anyone to
      expect(byKey.get(privateKey)!.data.links).to.deep.equal({
        api: `${world.fb.url}${item(privateKey)}`,
      });
      await api.patch('/v1/workspaces/acme-co/products/WEB', { visibility: 'public' });
    });
  });

  describe('When a webhook filters by type and product', () => {
    it('receives only the types and products it asked for', async () => {
      const api = world.fb.api(world.owner.token);
      const before = all.received.length;
      const app = await submit(world, 'An APP item', 'APP');
      const web = await submit(world, 'A WEB item', 'WEB');
      await api.post(`${item(app)}/replies`, { body: 'APP reply' });
      await api.post(`${item(web)}/replies`, { body: 'WEB reply' });
      await all.until(before + 4);
      const [only] = await filtered.until(1);
      const message = verify(filteredHook.secret, only!);
      expect(message.type).to.equal('item.replied');
      expect(message.data.itemKey).to.equal(web);
      // every event was fanned out by now: the filtered webhook has exactly that one delivery
      const log = await api.get(`${hook(filteredHook.id)}/deliveries`);
      expect(log.body.items.map((d: any) => d.eventType)).to.deep.equal(['item.replied']);
      expect(filtered.received).to.have.length(1);
    });
  });

  describe('When an admin sends a test message', () => {
    it('delivers a verifying webhook.test and logs the attempt', async () => {
      const api = world.fb.api(world.owner.token);
      const before = filtered.received.length;
      const res = await api.post(`${hook(filteredHook.id)}/test`);
      expect(res.status).to.equal(200);
      const got = await filtered.until(before + 1);
      const message = verify(filteredHook.secret, got[before]!);
      expect(message.type).to.equal('webhook.test');
      expect(message.data).to.include({ workspace: 'acme-co', webhookId: filteredHook.id });
      const detail = await api.get(`${hook(filteredHook.id)}/deliveries/${res.body.deliveryId}`);
      expect(detail.status).to.equal(200);
      expect(detail.body.delivery).to.include({
        status: 'succeeded',
        eventType: 'webhook.test',
        attemptCount: 1,
        lastResponseStatus: 204,
        messageId: message.data.messageId,
      });
      expect(detail.body.attempts).to.have.length(1);
      expect(detail.body.attempts[0]).to.include({
        status: 'succeeded',
        responseStatus: 204,
        error: null,
      });
    });
  });

  describe('When an item ships, its people are told and a changelog entry is published', () => {
    it('delivers item.notified with the counts and changelog.published with the entry', async () => {
      const api = world.fb.api(world.owner.token);
      const key = await submit(world, 'Bulk export');
      await api.post(`${item(key)}/status`, { status: 'shipped' });
      const notified = await api.post(`${item(key)}/notify`, { confirm: true, message: 'Live!' });
      expect(notified.status).to.equal(200);
      const drafted = await api.post(`${item(key)}/changelog`, {
        publish: true,
        title: 'Bulk export',
      });
      expect(drafted.status).to.equal(200);
      const messages = await eventually(async () => {
        const found = all.received
          .map((r) => verify(allHook.secret, r))
          .filter((m) => m.data.itemKey === key);
        return found.length === 4 && found;
      }, 'the four messages of the item');
      const byType = new Map(messages.map((m: any) => [m.type, m]));
      expect(byType.get('item.notified').data.notification).to.deep.equal({
        status: 'shipped',
        message: 'Live!',
        notified: notified.body.notified,
        skipped: notified.body.skipped,
      });
      expect(byType.get('item.notified').data.item.notifiedAt).to.be.a('number');
      const published = byType.get('changelog.published');
      expect(published.data.changelog).to.include({
        id: drafted.body.publishedId,
        itemId: key,
        productId: 'APP',
        title: 'Bulk export',
      });
      expect(published.data.changelog.itemIds).to.deep.equal(drafted.body.itemIds);
      // the entry as the public changelog shows it: who is behind its names is not sent
      expect(Object.keys(published.data.changelog).sort()).to.deep.equal(
        [
          'body',
          'id',
          'itemId',
          'itemIds',
          'productId',
          'publishedAt',
          'requestedByCount',
          'requestedByNames',
          'title',
          'updatedAt',
        ].sort(),
      );
      expect(published.data.sequence).to.equal(0);
      expect(published.data.item.status).to.equal('shipped');
    });
  });

  // beyond issue 18's list: an unmerge (issue 15) is announced like the merge it undoes
  describe('When a merge is undone', () => {
    it('delivers item.unmerged on the survivor and on the item given back', async () => {
      const api = world.fb.api(world.owner.token);
      const survivor = await submit(world, 'Offline mode');
      const duplicate = await submit(world, 'Work without a connection');
      expect(
        (await api.post(`${item(survivor)}/merge`, { mergedKeys: [duplicate] })).status,
      ).to.equal(200);
      const undone = await api.post(`${item(survivor)}/unmerge`, { mergedKeys: [duplicate] });
      expect(undone.status).to.equal(200);
      const messages = await eventually(async () => {
        const found = all.received
          .map((r) => verify(allHook.secret, r))
          .filter((m) => m.type === 'item.unmerged');
        return found.length === 2 && found;
      }, 'the two item.unmerged messages');
      const byItem = new Map(messages.map((m: any) => [m.data.itemKey, m.data]));
      expect(byItem.get(survivor)).to.include({ survivorKey: survivor });
      expect(byItem.get(survivor).mergedKeys).to.deep.equal([duplicate]);
      expect(byItem.get(duplicate)).to.include({ survivorKey: survivor });
      expect(byItem.get(duplicate).item.id).to.equal(duplicate);
    });
  });
});
