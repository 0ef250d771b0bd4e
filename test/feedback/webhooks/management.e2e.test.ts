/**
 * Issue 18, "The contract": the webhook operations, admin role required, same envelope, live
 * membership and 404 rules as the rest. "Must show": "non-admin members get 403 on webhook
 * management; non-members 404."
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

const WEBHOOK_KEYS = [
  'id',
  'url',
  'description',
  'eventTypes',
  'productKeys',
  'enabled',
  'disabledReason',
  'createdAt',
  'createdBy',
  'updatedAt',
];

describe('Managing webhooks (e2e)', () => {
  let world: World;
  let receiver: Receiver;

  before(async () => {
    [world, receiver] = await startWorldWith(1);
  });
  after(() => stopWorld(world, receiver));
  const api = () => world.fb.api(world.owner.token);

  describe('When an admin creates a webhook', () => {
    it('answers the Webhook record and a whsec_ secret shown this once', async () => {
      const res = await api().post(hooks(), { url: receiver.url, description: '  CRM sync  ' });
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.body).to.have.all.keys('webhook', 'secret');
      expect(res.body.webhook).to.have.all.keys(...WEBHOOK_KEYS);
      expect(res.body.webhook).to.include({
        url: receiver.url,
        description: 'CRM sync',
        eventTypes: null,
        productKeys: null,
        enabled: true,
        disabledReason: null,
        // like Integration's createdBy: "the admin who created it"
        createdBy: world.owner.userId,
      });
      expect(res.body.webhook.id).to.match(/^wh_[0-9a-f]{32}$/);
      // Standard Webhooks: `whsec_` + base64 of the key
      expect(res.body.secret).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
      expect(Buffer.from(res.body.secret.slice(6), 'base64')).to.have.length(32);
      const listed = await api().get(hooks());
      expect(JSON.stringify(listed.body)).not.to.include(res.body.secret.slice(6));
      const got = await api().get(hook(res.body.webhook.id));
      expect(got.body).to.deep.equal({ webhook: res.body.webhook });
    });

    it('keeps the secret only sealed: neither the log nor the read model holds its value', async () => {
      const { id, secret } = await subscribe(world, receiver);
      const runtime = world.fb.runtime.runtime;
      const events = await runtime.stores.eventStore.readStream(
        `webhook-${world.ws.workspaceId}.${id}`,
      );
      const doc = await runtime.stores.readStore
        .collection('webhooks')
        .findOne({ _id: `${world.ws.workspaceId}.${id}` });
      const key = secret.slice('whsec_'.length);
      expect(JSON.stringify(events.map((e) => [e.data, e.metadata]))).not.to.include(key);
      expect(JSON.stringify(doc)).not.to.include(key);
      expect(events[0]?.data).to.have.property('secret').that.matches(/^v1\./);
    });

    it('normalizes filters and answers 400 for what it cannot accept', async () => {
      const created = await api().post(hooks(), {
        url: receiver.url,
        eventTypes: ['item.replied', 'item.created', 'item.replied'],
        productKeys: ['WEB', 'APP'],
      });
      expect(created.body.webhook.eventTypes).to.deep.equal(['item.created', 'item.replied']);
      expect(created.body.webhook.productKeys).to.deep.equal(['APP', 'WEB']);
      const bad = [
        { url: receiver.url, description: 'x'.repeat(201) },
        { url: receiver.url, eventTypes: ['item.exploded'] },
        { url: receiver.url, eventTypes: [] },
        { url: receiver.url, productKeys: ['ZZZ'] },
        { url: receiver.url, productKeys: ['lower'] },
        { url: receiver.url, secret: 'mine' },
        { url: 'ftp://127.0.0.1/hooks' },
        { url: 'not a url' },
        { url: `http://user:pass@127.0.0.1:${receiver.port}/hooks` },
        {},
        // webhooks audit: these were stored as typed, shown unlike the URL called
        { url: ` ${receiver.url}` },
        { url: `${receiver.url}\r\nX-Injected: 1` },
        { url: `http://127.0.0.1:${receiver.port}\\@10.0.0.1/hooks` },
        // …and a NUL or line break in the description
        { url: receiver.url, description: 'a\u0000b' },
        { url: receiver.url, description: 'two\nlines' },
      ];
      for (const body of bad) {
        expectError(await api().post(hooks(), body), 400, 'invalid-argument');
      }
      // the URL is kept as it will be called, so the list shows the receiver messages go to
      const spelled = await api().post(hooks(), {
        url: `HTTP://127.0.0.1:${receiver.port}/a/../hooks`,
      });
      expect(spelled.status, JSON.stringify(spelled.body)).to.equal(200);
      expect(spelled.body.webhook.url).to.equal(`http://127.0.0.1:${receiver.port}/hooks`);
      const id = spelled.body.webhook.id as string;
      const updated = await api().patch(hook(id), {
        url: `http://127.0.0.1:${receiver.port}/./b`,
      });
      expect(updated.body.webhook.url).to.equal(`http://127.0.0.1:${receiver.port}/b`);
      // a fragment is never sent (HTTP has no place for it): kept, it showed a URL not called
      for (const [typed, kept] of [
        ['/hooks?to=crm#section', '/hooks?to=crm'],
        ['/c#', '/c'],
      ]) {
        const fragment = await api().patch(hook(id), {
          url: `http://127.0.0.1:${receiver.port}${typed}`,
        });
        expect(fragment.body.webhook?.url, JSON.stringify(fragment.body)).to.equal(
          `http://127.0.0.1:${receiver.port}${kept}`,
        );
      }
      expect((await api().del(hook(id))).status).to.equal(204);
    });
  });

  describe('When an admin updates, disables, enables and deletes a webhook', () => {
    it('changes only what was sent and answers the webhook as it is now', async () => {
      const { id } = await subscribe(world, receiver);
      const patched = await api().patch(hook(id), {
        description: 'only replies',
        eventTypes: ['item.replied'],
      });
      expect(patched.status).to.equal(200);
      expect(patched.body.webhook).to.include({ description: 'only replies', url: receiver.url });
      expect(patched.body.webhook.eventTypes).to.deep.equal(['item.replied']);
      const off = await api().patch(hook(id), { enabled: false });
      expect(off.body.webhook).to.include({ enabled: false, disabledReason: null });
      const on = await api().patch(hook(id), { enabled: true, eventTypes: null });
      expect(on.body.webhook).to.include({ enabled: true, eventTypes: null });
      expectError(await api().patch(hook(id), { enabled: 'yes' }), 400, 'invalid-argument');
      expectError(await api().patch(hook(id), { colour: 'red' }), 400, 'invalid-argument');
    });

    it('deletes with 204; the webhook is then not found', async () => {
      const { id } = await subscribe(world, receiver);
      const res = await api().del(hook(id));
      expect(res.status).to.equal(204);
      expect(res.body).to.equal(undefined);
      expectError(await api().get(hook(id)), 404, 'not-found');
      expectError(await api().del(hook(id)), 404, 'not-found');
      const listed = await api().get(hooks());
      expect(listed.body.items.map((w: any) => w.id)).not.to.include(id);
    });

    it('answers 404 for a malformed id and for another workspace’s webhook', async () => {
      expectError(await api().get(hook('wh_nope')), 404, 'not-found');
      const outsiderHooks = `/v1/workspaces/${world.outsider.home.slug}/webhooks`;
      const theirs = await world.fb
        .api(world.outsider.token)
        .post(outsiderHooks, { url: receiver.url });
      expect(theirs.status).to.equal(200);
      expectError(await api().get(hook(theirs.body.webhook.id)), 404, 'not-found');
      expectError(await api().del(hook(theirs.body.webhook.id)), 404, 'not-found');
    });
  });

  describe('When someone other than an admin calls the webhook operations', () => {
    const calls = (id: string) =>
      [
        ['post', hooks(), { url: 'http://127.0.0.1:9/x' }],
        ['get', hooks()],
        ['get', hook(id)],
        ['patch', hook(id), { description: 'x' }],
        ['del', hook(id)],
        ['post', `${hook(id)}/rotate-secret`],
        ['post', `${hook(id)}/test`],
        ['get', `${hook(id)}/deliveries`],
        ['get', `${hook(id)}/deliveries/dlv_aaaaaaaaaaaaaaaaaaaaaaaa`],
        ['post', `${hook(id)}/deliveries/dlv_aaaaaaaaaaaaaaaaaaaaaaaa/redeliver`],
        ['post', `${hook(id)}/recover`, { since: 0 }],
      ] as const;

    async function call(token: string, [method, path, body]: readonly [string, string, unknown?]) {
      const client = world.fb.api(token) as any;
      return method === 'get' || method === 'del'
        ? client[method](path)
        : client[method](path, body);
    }

    it('answers a member 403 permission-denied on every one of the eleven', async () => {
      const { id } = await subscribe(world, receiver);
      for (const request of calls(id)) {
        expectError(await call(world.member.token, request), 403, 'permission-denied');
      }
      expect((await api().get(hook(id))).status).to.equal(200);
    });

    it('answers a non-member 404 as for an unknown workspace on every one', async () => {
      const { id } = await subscribe(world, receiver);
      const unknown = await world.fb
        .api(world.outsider.token)
        .get('/v1/workspaces/no-such-ws/webhooks');
      for (const request of calls(id)) {
        const res = await call(world.outsider.token, request);
        expectError(res, 404, 'not-found');
        expect(res.body).to.deep.equal(unknown.body);
      }
    });

    it('lets any member read the event feed, and a non-member gets 404', async () => {
      const feed = '/v1/workspaces/acme-co/events';
      expect((await world.fb.api(world.member.token).get(feed)).status).to.equal(200);
      expectError(await world.fb.api(world.outsider.token).get(feed), 404, 'not-found');
    });
  });

  describe('When the OpenAPI document is read', () => {
    it('lists every webhook and integration operation with its access rule', async () => {
      const doc = (await world.fb.api().get('/v1/openapi.json')).body;
      const ids = new Map<string, any>();
      for (const methods of Object.values<any>(doc.paths)) {
        for (const op of Object.values<any>(methods)) ids.set(op.operationId, op);
      }
      const admin = [
        'create_webhook',
        'list_webhooks',
        'get_webhook',
        'update_webhook',
        'delete_webhook',
        'rotate_webhook_secret',
        'send_test_webhook',
        'list_webhook_deliveries',
        'get_webhook_delivery',
        'redeliver_webhook',
        'recover_webhook',
        'create_integration',
        'list_integrations',
        'revoke_integration',
      ];
      for (const id of admin) {
        expect(ids.get(id), id).to.not.equal(undefined);
        expect(ids.get(id).description, id).to.include('**admin** role');
      }
      expect(ids.get('list_events').description).to.include('Any member');
    });
  });
});
