/**
 * Issue 18, "Inbound: workspace integration credentials": create_integration (`name` 1–100,
 * admin) → `{integration, credential}` (prefix `rfi_`, shown once, stored as a hash);
 * list_integrations; revoke_integration (effective on the next request). "The credential
 * belongs to the workspace, not to a person: it reaches only that workspace's routes, with a
 * member's rights (never admin, never `/v1/me/*`), and its writes ... are labelled `via:
 * integration:<connection name>` ... Replies posted with it are `authorKind: agent` carrying
 * the connection's name."
 * "Must show": "the label on captured items and replies, workspace confinement (another
 * workspace → 404, `/v1/me/tokens` → 403), revocation on the next request, hash at rest."
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { verify } from '../webhooks/support/receiver.js';
import {
  expectError,
  item,
  type Receiver,
  startReceiver,
  startWorld,
  submitPath,
  subscribe,
  type World,
} from '../webhooks/support/world.js';

const INTEGRATIONS = '/v1/workspaces/acme-co/integrations';

describe('Workspace integration credentials (e2e)', () => {
  let world: World;
  let integration: any;
  let credential: string;

  before(async () => {
    world = await startWorld();
    await world.fb.createProduct(world.ws, { key: 'SEC', name: 'Secret', visibility: 'private' });
    const res = await world.fb.api(world.owner.token).post(INTEGRATIONS, { name: 'Zendesk sync' });
    expect(res.status).to.equal(201);
    integration = res.body.integration;
    credential = res.body.credential;
  });
  after(() => world.fb.stop());
  const asIntegration = () => world.fb.api(credential);

  describe('When an admin creates one', () => {
    it('answers the integration and an rfi_ credential shown this once', async () => {
      expect(credential).to.match(/^rfi_[A-Za-z0-9_-]{43}$/);
      expect(integration).to.have.all.keys(
        'id',
        'name',
        'createdAt',
        'createdBy',
        'revoked',
        'revokedAt',
      );
      expect(integration).to.include({
        name: 'Zendesk sync',
        createdBy: world.owner.userId,
        revoked: false,
        revokedAt: null,
      });
      const listed = await world.fb.api(world.owner.token).get(INTEGRATIONS);
      expect(listed.body).to.deep.equal({ items: [integration], nextCursor: null });
    });

    it('stores only its hash', async () => {
      const runtime = world.fb.runtime.runtime;
      const events = await runtime.stores.eventStore.readStream(`integration-${integration.id}`);
      const doc = await runtime.stores.readStore
        .collection('integrations')
        .findOne({ _id: integration.id });
      const hash = createHash('sha256').update(credential).digest('hex');
      expect(events[0]?.data).to.include({ hash });
      expect(doc).to.include({ hash });
      const secretPart = credential.slice(4);
      expect(JSON.stringify(events.map((e) => e.data))).not.to.include(secretPart);
      expect(JSON.stringify(doc)).not.to.include(secretPart);
    });

    it('refuses names outside 1 to 100 characters, and non-admins', async () => {
      const api = world.fb.api(world.owner.token);
      for (const name of ['', '   ', 'x'.repeat(101)]) {
        expectError(await api.post(INTEGRATIONS, { name }), 400, 'invalid-argument');
      }
      expectError(
        await api.post(INTEGRATIONS, { name: 'x', scope: 'all' }),
        400,
        'invalid-argument',
      );
      const member = world.fb.api(world.member.token);
      expectError(await member.post(INTEGRATIONS, { name: 'x' }), 403, 'permission-denied');
      expectError(await member.get(INTEGRATIONS), 403, 'permission-denied');
      const outsider = world.fb.api(world.outsider.token);
      expectError(await outsider.get(INTEGRATIONS), 404, 'not-found');
    });
  });

  describe('When the credential writes', () => {
    let receiver: Receiver;
    let secret: string;
    before(async () => {
      receiver = await startReceiver();
      secret = (await subscribe(world, receiver)).secret;
    });
    after(() => receiver.close());

    it('labels a captured item, its replies and status changes integration:<name>', async () => {
      const submitted = await asIntegration().post(submitPath(), {
        body: 'Customer asks for SSO',
        email: 'customer@example.com',
      });
      expect(submitted.status).to.equal(200);
      const key = submitted.body.itemId;
      expect(
        (await asIntegration().post(`${item(key)}/replies`, { body: 'Logged' })).status,
      ).to.equal(200);
      expect(
        (await asIntegration().post(`${item(key)}/status`, { status: 'planned' })).status,
      ).to.equal(200);

      const got = await world.fb.api(world.owner.token).get(item(key));
      expect(got.body.item.via).to.equal('integration:Zendesk sync');
      expect(got.body.replies[0]).to.include({
        authorKind: 'agent',
        authorId: integration.id,
        authorName: 'Zendesk sync',
      });
      const events = await world.fb.runtime.runtime.stores.eventStore.readStream(
        `item-${world.ws.workspaceId}.${key}`,
      );
      expect(events.map((e) => [e.type, e.metadata.via, e.metadata.actor])).to.deep.equal([
        ['ItemCaptured', 'integration:Zendesk sync', integration.id],
        ['ItemReplied', 'integration:Zendesk sync', integration.id],
        ['ItemStatusChanged', 'integration:Zendesk sync', integration.id],
      ]);
      // webhook messages name it as an agent
      const messages = (await receiver.until(3)).map((r) => verify(secret, r));
      for (const message of messages) {
        expect(message.data.actor).to.deep.equal({
          kind: 'agent',
          id: integration.id,
          name: 'Zendesk sync',
        });
        expect(message.data.via).to.equal('integration:Zendesk sync');
      }
    });

    it('has a member’s rights in its workspace: reads, files into a private product, resolves keys', async () => {
      expect(
        (await asIntegration().get('/v1/workspaces/acme-co/products/APP/items')).status,
      ).to.equal(200);
      expect((await asIntegration().get('/v1/workspaces/acme-co/events')).status).to.equal(200);
      const privateSubmit = await asIntegration().post(submitPath('SEC'), { body: 'Internal' });
      expect(privateSubmit.status).to.equal(200);
      const resolved = await asIntegration().get(`/v1/items/${privateSubmit.body.itemId}`);
      expect(resolved.status).to.equal(200);
      expect(resolved.body.matches.map((m: any) => m.slug)).to.deep.equal(['acme-co']);
    });
  });

  describe('When the credential reaches beyond its workspace', () => {
    it('answers 404 for another workspace, as for an unknown one', async () => {
      const other = world.outsider.home.slug;
      await world.fb.createProduct(world.outsider.home, {
        key: 'OUT',
        name: 'Out',
        visibility: 'public',
      });
      const unknown = await asIntegration().get('/v1/workspaces/no-such-ws/products');
      const res = await asIntegration().get(`/v1/workspaces/${other}/products`);
      expectError(res, 404, 'not-found');
      expect(res.body).to.deep.equal(unknown.body);
      expectError(
        await asIntegration().post(submitPath('OUT', other), { body: 'x' }),
        404,
        'not-found',
      );
      expectError(await asIntegration().get(`/v1/public/${other}/OUT/roadmap`), 404, 'not-found');
      const theirItem = await world.fb.submit(world.outsider.home, 'OUT', { body: 'Theirs' });
      expectError(await asIntegration().get(`/v1/items/${theirItem.itemKey}`), 404, 'not-found');
    });

    it('answers 403 on /v1/me/* and on admin operations', async () => {
      expectError(await asIntegration().get('/v1/me/tokens'), 403, 'permission-denied');
      expectError(
        await asIntegration().post('/v1/me/tokens', { name: 'x' }),
        403,
        'permission-denied',
      );
      expectError(await asIntegration().get('/v1/me/apps'), 403, 'permission-denied');
      expectError(await asIntegration().get(INTEGRATIONS), 403, 'permission-denied');
      expectError(
        await asIntegration().post('/v1/workspaces/acme-co/webhooks', {
          url: 'http://127.0.0.1:9/x',
        }),
        403,
        'permission-denied',
      );
      expectError(
        await asIntegration().patch('/v1/workspaces/acme-co/products/APP', { name: 'Taken over' }),
        403,
        'permission-denied',
      );
    });
  });

  describe('When an admin revokes it', () => {
    it('stops working on the very next request; revoking again changes nothing', async () => {
      const created = await world.fb.api(world.owner.token).post(INTEGRATIONS, { name: 'Temp' });
      const temp = world.fb.api(created.body.credential);
      expect((await temp.get('/v1/workspaces/acme-co/products')).status).to.equal(200);
      const path = `${INTEGRATIONS}/${created.body.integration.id}`;
      expect((await world.fb.api(world.owner.token).del(path)).status).to.equal(204);
      const refused = await temp.get('/v1/workspaces/acme-co/products');
      expectError(refused, 401, 'unauthenticated');
      expect(refused.headers.get('www-authenticate')).to.match(/^Bearer /);
      expect((await world.fb.api(world.owner.token).del(path)).status).to.equal(204);
      const listed = await world.fb.api(world.owner.token).get(INTEGRATIONS);
      const revoked = listed.body.items.find((i: any) => i.id === created.body.integration.id);
      expect(revoked.revoked).to.equal(true);
      expect(revoked.revokedAt).to.be.a('number');
    });

    it('answers 404 for an unknown id and for another workspace’s integration', async () => {
      const api = world.fb.api(world.owner.token);
      expectError(await api.del(`${INTEGRATIONS}/int_${'0'.repeat(32)}`), 404, 'not-found');
      expectError(await api.del(`${INTEGRATIONS}/nope`), 404, 'not-found');
      const theirs = await world.fb
        .api(world.outsider.token)
        .post(`/v1/workspaces/${world.outsider.home.slug}/integrations`, { name: 'Theirs' });
      expectError(await api.del(`${INTEGRATIONS}/${theirs.body.integration.id}`), 404, 'not-found');
    });

    it('refuses a credential that was never issued', async () => {
      const res = await world.fb
        .api(`rfi_${'A'.repeat(43)}`)
        .get('/v1/workspaces/acme-co/products');
      expectError(res, 401, 'unauthenticated');
    });
  });
});
