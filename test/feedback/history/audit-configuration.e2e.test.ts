/**
 * The audit trail covers the workspace's configuration, over real HTTP. README, "History, as-of,
 * audit trail": "`list_audit_events` — the workspace's events newest first, admin only" — and
 * its webhooks and integration credentials are the workspace's too: who pointed its messages
 * (private products' included) at a URL, changed, re-keyed, paused or deleted it, who minted or
 * revoked a credential that writes into it. "Never their secrets or hashes."
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import {
  eventually,
  hook,
  hooks,
  type Receiver,
  SLUG,
  startReceiver,
  startWorld,
  submit,
  type World,
} from '../webhooks/support/world.js';

const AUDIT = `/v1/workspaces/${SLUG}/audit`;
const INTEGRATIONS = `/v1/workspaces/${SLUG}/integrations`;

interface ChangeBody {
  type: string;
  itemKey: string | null;
  actor: { kind: string; id: string | null; name: string | null };
  via?: string;
  summary: string;
  changes: Record<string, { from: unknown; to: unknown }>;
}

describe('Audit trail of webhooks and integration credentials (e2e)', () => {
  let world: World;
  let first: Receiver;
  let second: Receiver;
  let webhookId: string;
  const shown: string[] = []; // every secret and credential the API answered
  let integrationId: string;

  before(async function () {
    this.timeout(60_000);
    world = await startWorld();
    await world.fb.createProduct(world.ws, { key: 'SEC', name: 'Secret', visibility: 'private' });
    [first, second] = [await startReceiver(), await startReceiver()];
    const created = await api().post(hooks(), { url: first.url, productKeys: ['SEC'] });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    webhookId = created.body.webhook.id;
    shown.push(created.body.secret);
    const patched = await api().patch(hook(webhookId), {
      url: second.url,
      eventTypes: ['item.created', 'item.replied'],
    });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    const rotated = await api().post(`${hook(webhookId)}/rotate-secret`);
    expect(rotated.status).to.equal(200);
    shown.push(rotated.body.secret);
    expect((await api().patch(hook(webhookId), { enabled: false })).status).to.equal(200);
    expect((await api().patch(hook(webhookId), { enabled: true })).status).to.equal(200);
    expect((await api().del(hook(webhookId))).status).to.equal(204);
    const minted = await api().post(INTEGRATIONS, { name: 'Zendesk sync' });
    expect(minted.status).to.equal(201);
    integrationId = minted.body.integration.id;
    shown.push(minted.body.credential);
    expect((await api().del(`${INTEGRATIONS}/${integrationId}`)).status).to.equal(204);
  });
  after(async () => {
    await world?.fb.stop();
    await first?.close();
    await second?.close();
  });
  const api = () => world.fb.api(world.owner.token);
  const trail = async (query = ''): Promise<ChangeBody[]> => {
    const res = await api().get(`${AUDIT}?pageSize=200${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.items;
  };
  const one = async (type: string): Promise<ChangeBody> => {
    const [change, ...more] = await trail(`&type=${type}`);
    expect(more, type).to.deep.equal([]);
    return change!;
  };
  const owner = () => ({ kind: 'maker', id: world.owner.userId, name: 'owner' });

  describe('When an admin creates, changes, re-keys, pauses, resumes and deletes a webhook', () => {
    it('lists each with the admin as actor, a sentence, and the fields it changed', async () => {
      const hookName = `the webhook ${webhookId}`;
      const created = await one('WebhookCreated');
      expect(created).to.deep.include({ itemKey: null, actor: owner(), via: 'pat:laptop' });
      expect(created.summary).to.equal(
        `owner created ${hookName}, sending every message of SEC to ${first.url}`,
      );
      expect(created.changes).to.deep.equal({
        url: { from: null, to: first.url },
        description: { from: null, to: '' },
        productKeys: { from: null, to: ['SEC'] },
        enabled: { from: null, to: true },
      });
      const updated = await one('WebhookUpdated');
      expect(updated.actor).to.deep.equal(owner());
      expect(updated.summary).to.equal(
        `owner changed ${hookName}: its URL from ${first.url} to ${second.url} and its messages to item.created and item.replied messages`,
      );
      expect(updated.changes).to.deep.equal({
        url: { from: first.url, to: second.url },
        eventTypes: { from: null, to: ['item.created', 'item.replied'] },
      });
      const rotated = await one('WebhookSecretRotated');
      expect(rotated.summary).to.match(
        new RegExp(
          `^owner rotated the signing secret of ${hookName} \\(the replaced one signs until \\d{4}-`,
        ),
      );
      expect(rotated.changes).to.deep.equal({});
      const disabled = await one('WebhookDisabled');
      expect(disabled.summary).to.equal(`owner disabled ${hookName}`);
      expect(disabled.changes).to.deep.equal({ enabled: { from: true, to: false } });
      const enabled = await one('WebhookEnabled');
      expect(enabled.summary).to.equal(`owner enabled ${hookName} again`);
      expect(enabled.changes).to.deep.equal({ enabled: { from: false, to: true } });
      const deleted = await one('WebhookDeleted');
      expect(deleted.summary).to.equal(`owner deleted ${hookName}, which sent to ${second.url}`);
      expect(deleted.changes.url).to.deep.equal({ from: second.url, to: null });
    });
  });

  describe('When an admin mints and revokes an integration credential', () => {
    it('lists both with the admin as actor and the credential’s name', async () => {
      const created = await one('IntegrationCreated');
      expect(created).to.deep.include({ itemKey: null, actor: owner(), via: 'pat:laptop' });
      expect(created.summary).to.equal('owner created the integration credential “Zendesk sync”');
      expect(created.changes).to.deep.equal({
        name: { from: null, to: 'Zendesk sync' },
        revoked: { from: null, to: false },
      });
      const revoked = await one('IntegrationRevoked');
      expect(revoked.actor).to.deep.equal(owner());
      expect(revoked.summary).to.equal('owner revoked the integration credential “Zendesk sync”');
      expect(revoked.changes).to.deep.equal({ revoked: { from: false, to: true } });
    });
  });

  describe('When the audit answers are read as text', () => {
    it('holds no secret, sealed secret, credential or credential hash anywhere', async () => {
      const stores = world.fb.runtime.runtime.stores;
      const log = [
        ...(await stores.eventStore.readStream(`webhook-${world.ws.workspaceId}.${webhookId}`)),
        ...(await stores.eventStore.readStream(`integration-${integrationId}`)),
      ];
      const recorded = log.flatMap((e) => {
        const data = e.data as { secret?: string; hash?: string };
        return [data.secret, data.hash].filter((v): v is string => typeof v === 'string');
      });
      expect(recorded).to.have.length(3); // two sealed secrets, one hash
      const forbidden = [
        ...shown,
        ...shown.map((s) => s.replace(/^(whsec|rfi)_/, '')),
        createHash('sha256').update(shown[2]!).digest('hex'),
        ...recorded,
      ];
      for (const query of ['', '&type=WebhookCreated', '&type=WebhookSecretRotated']) {
        const res = await fetch(`${world.fb.url}${AUDIT}?pageSize=200${query}`, {
          headers: { authorization: `Bearer ${world.owner.token}` },
        });
        const text = await res.text();
        expect(text).to.include('Webhook');
        for (const value of forbidden) expect(text).not.to.include(value);
        expect(text).not.to.match(/"(secret|hash)"/);
      }
    });
  });

  describe('When the trail is filtered', () => {
    it('matches them by type, actor and via, and never by product: they configure the workspace', async () => {
      const mine = (await trail(`&actorId=${world.owner.userId}`)).map((c) => c.type);
      expect(mine).to.include.members(['WebhookCreated', 'WebhookDeleted', 'IntegrationRevoked']);
      const viaLaptop = (await trail(`&via=pat:laptop&type=WebhookUpdated`)).length;
      expect(viaLaptop).to.equal(1);
      for (const key of ['SEC', 'APP']) {
        const types = (await trail(`&productKey=${key}`)).map((c) => c.type);
        expect(types.some((t) => t.startsWith('Webhook') || t.startsWith('Integration'))).to.be
          .false;
      }
    });
  });

  describe('When the service disables a webhook whose receiver answered 410 Gone', () => {
    it('names the system as actor and gives the reason', async () => {
      const gone = await startReceiver();
      try {
        gone.answer = () => ({ status: 410 });
        const { body } = await api().post(hooks(), { url: gone.url });
        await submit(world, 'Anyone there?');
        await eventually(
          async () => !(await api().get(hook(body.webhook.id))).body.webhook.enabled,
          'the webhook to be disabled',
        );
        const disabled = (await trail('&type=WebhookDisabled'))[0]!;
        expect(disabled.actor).to.deep.equal({ kind: 'system', id: null, name: null });
        expect(disabled.summary).to.match(
          new RegExp(
            `^The system disabled the webhook ${body.webhook.id}: the receiver answered 410 Gone on `,
          ),
        );
        expect(disabled.changes.enabled).to.deep.equal({ from: true, to: false });
        expect(disabled.changes.disabledReason?.to).to.match(/^the receiver answered 410 Gone/);
      } finally {
        await gone.close();
      }
    });
  });
});
