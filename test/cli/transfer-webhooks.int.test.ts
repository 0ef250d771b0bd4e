/**
 * A workspace's webhooks and integrations on a move between installations (export, then
 * import-workspace into an empty one), run as operators run them. README: "the workspace's
 * webhooks (URL, description, filters, enabled or disabled, deleted ones gone) and integrations
 * move with it … A signing secret is in the file only sealed with the source's APP_SECRET: on an
 * installation with the same APP_SECRET the webhooks go on as they were; with another, each
 * enabled webhook arrives disabled, saying why, until an admin rotates its secret … The webhook
 * worker starts after the imported events."
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { withSession } from '../../src/cli/session.js';
import { loadConfig } from '../../src/config/load.js';
import {
  createIntegration,
  createWebhook,
  deleteWebhook,
  hashIntegrationCredential,
  revokeIntegration,
  updateWebhook,
} from '../../src/feedback/actions/index.js';
import { integrationByHash } from '../../projections/integrations/index.js';
import { webhooksOf } from '../../projections/webhooks/document.js';
import { loadSecret } from '../../src/platform/secret.js';
import { createSecretBox } from '../../src/webhooks/secrets.js';
import { loadCheckpoint, WORKER_LEASE } from '../../src/webhooks/worker/state.js';
import {
  cliFails,
  cliOk,
  rawLog,
  removeDir,
  seedBoard,
  tempDataDir,
  withStores,
} from './support.js';

describe('When an operator moves a workspace with webhooks and integrations (CLI)', function () {
  this.timeout(180_000);
  let source: string;
  let workspaceId: string;
  let live: { webhookId: string; secret: string };
  let paused: string;
  let credential: string;

  before(async () => {
    source = tempDataDir();
    ({ workspaceId } = await seedBoard(source));
    const config = loadConfig({ DATA_DIR: source });
    await withSession(config, async ({ deps, context, caughtUp }) => {
      const hooks = {
        ...deps,
        secrets: createSecretBox(loadSecret(config)),
        policy: { allowPrivate: true },
        maxPerWorkspace: 10,
      };
      const url = (path: string) => `http://127.0.0.1:9/${path}`;
      live = await createWebhook(hooks, context(), {
        workspaceId,
        url: url('crm'),
        description: 'CRM sync',
        eventTypes: ['item.created', 'item.status_changed'],
        productKeys: ['APP'],
      });
      paused = (await createWebhook(hooks, context(), { workspaceId, url: url('paused') }))
        .webhookId;
      await updateWebhook(hooks, context(), { workspaceId, webhookId: paused, enabled: false });
      const gone = await createWebhook(hooks, context(), { workspaceId, url: url('gone') });
      await caughtUp();
      await deleteWebhook(hooks, context(), { workspaceId, webhookId: gone.webhookId });
      credential = (await createIntegration(deps, context(), { workspaceId, name: 'Zapier' }))
        .credential;
      const old = await createIntegration(deps, context(), { workspaceId, name: 'Old' });
      await revokeIntegration(deps, context(), { workspaceId, integrationId: old.integrationId });
    });
  });
  after(() => removeDir(source));

  const exported = async (target: string) => {
    const file = join(target, 'acme.jsonl');
    await cliOk(source, 'export', '--workspace', 'acme-co', '--out', file);
    return file;
  };
  const webhooksIn = (dir: string) =>
    withStores(dir, async ({ readStore }) =>
      (await webhooksOf(readStore).find({ _ws: workspaceId }, { sort: { _id: 1 } })).map((doc) => ({
        id: doc.id,
        url: doc.url,
        description: doc.description,
        eventTypes: doc.eventTypes,
        productKeys: doc.productKeys,
        enabled: doc.enabled,
        deleted: doc._deleted,
      })),
    );

  it('writes a version-2 file that holds no signing secret in clear', async () => {
    const target = tempDataDir();
    try {
      const text = readFileSync(await exported(target), 'utf8');
      expect(JSON.parse(text.split('\n')[0]!)).to.include({ version: 2 });
      expect(text).to.include('WebhookCreated').and.include('IntegrationCreated');
      expect(text).not.to.include(live.secret);
      expect(text).not.to.include(live.secret.slice('whsec_'.length));
      expect(text).not.to.include(credential);
    } finally {
      removeDir(target);
    }
  });

  it('keeps the webhooks delivering on an installation with the same APP_SECRET', async () => {
    const target = tempDataDir();
    try {
      const file = await exported(target);
      copyFileSync(join(source, 'secret'), join(target, 'secret'));
      const said = await cliOk(target, 'import-workspace', '--file', file);
      expect(said).to.match(/^imported \d+ events of acme-co\n/);
      expect(said).to.include('webhooks: 2 moved, 2 deliver from the next event on');
      expect(await webhooksIn(target)).to.deep.equal(await webhooksIn(source));
      await withStores(target, async ({ readStore, eventStore }) => {
        const doc = await webhooksOf(readStore).findOne({ _ws: workspaceId, id: live.webhookId });
        const box = createSecretBox(loadSecret(loadConfig({ DATA_DIR: target })));
        expect(box.open(doc!._secret, live.webhookId)).to.equal(live.secret);
        // the worker starts after the imported events: none of them is delivered again
        expect(await loadCheckpoint(readStore)).to.equal(await eventStore.headPosition());
      });
    } finally {
      removeDir(target);
    }
  });

  it('holds the webhooks whose secret it cannot open on another APP_SECRET, and says so', async () => {
    const target = tempDataDir();
    try {
      const file = await exported(target);
      const said = await cliOk(target, 'import-workspace', '--file', file);
      expect(said).to.include('webhooks: 2 moved, 0 deliver from the next event on');
      expect(said).to.include(`webhook ${live.webhookId} (http://127.0.0.1:9/crm) is disabled:`);
      expect(said).to.include(`webhook ${paused} (http://127.0.0.1:9/paused) is disabled:`);
      expect(said).to.match(/rotate the secret, give it to the receiver, then enable the webhook/);
      const before = await webhooksIn(source);
      const after = await webhooksIn(target);
      // everything moved as it was, except that the live one is now disabled
      expect(after).to.deep.equal(
        before.map((h) => (h.id === live.webhookId ? { ...h, enabled: false } : h)),
      );
      expect(after.filter((h) => h.deleted)).to.have.length(1);
      await withStores(target, async ({ readStore }) => {
        const doc = await webhooksOf(readStore).findOne({ _ws: workspaceId, id: live.webhookId });
        expect(doc!.disabledReason).to.match(/sealed with that installation's APP_SECRET/);
      });
    } finally {
      removeDir(target);
    }
  });

  it('refuses while a webhook worker delivers from the target, and writes nothing', async () => {
    // settle.ts: a worker following the log would fan the imported events out as they land
    const target = tempDataDir();
    try {
      const file = await exported(target);
      const server = 'feedback server (pid 1 on elsewhere)';
      await withStores(target, (stores) =>
        stores
          .lease(WORKER_LEASE.collection, WORKER_LEASE.id)
          .take(server, Date.now(), 10 * 60_000),
      );
      expect(await cliFails(target, 'import-workspace', '--file', file)).to.equal(
        `error: a webhook worker is running (${server}); stop the server and any start:webhooks before importing, or it would deliver the imported events again`,
      );
      expect(await rawLog(target)).to.deep.equal([]);
      await withStores(target, (stores) =>
        stores.lease(WORKER_LEASE.collection, WORKER_LEASE.id).release(server),
      );
      await cliOk(target, 'import-workspace', '--file', file);
    } finally {
      removeDir(target);
    }
  });

  it('moves the integrations: a credential authenticates as before, a revoked one stays revoked', async () => {
    const target = tempDataDir();
    try {
      const said = await cliOk(target, 'import-workspace', '--file', await exported(target));
      expect(said).to.include('integrations: 2 moved, their credentials work here as they did');
      await withStores(target, async ({ readStore }) => {
        const found = await integrationByHash(readStore, hashIntegrationCredential(credential));
        expect(found).to.include({ name: 'Zapier', workspaceId, revoked: false });
        const all = await withStores(source, async (s) =>
          integrationByHash(s.readStore, hashIntegrationCredential(credential)),
        );
        expect(found).to.deep.equal(all);
      });
    } finally {
      removeDir(target);
    }
  });
});
