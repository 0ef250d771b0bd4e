/**
 * A data folder made before the audit trail covered webhooks and integration credentials, and
 * before the Webhook record had `createdBy`, picks both up on its next start: the audit and
 * webhooks projectors carry a version, and a read model built by another version is replayed
 * (projections/shared/projector.ts `version`, src/read/projector-versions.ts). Likewise one
 * audited by version 2 places the people its submissions created in their products' trails.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { auditProjector } from '../../../projections/audit/projector.js';
import { checkpointId } from '../../../projections/shared/projector.js';
import { webhooksProjector } from '../../../projections/webhooks/projector.js';
import { openEmbeddedReadStore } from '../../../src/readstore/embedded/index.js';
import { tempDir } from '../../support/stores.js';
import { startFeedback } from '../support/harness.js';
import { hook, hooks, SLUG, startWorld } from '../webhooks/support/world.js';

const RECEIVER = 'http://127.0.0.1:9/hooks'; // checked, never called: no item is captured

/** The read models as version 1 of both projectors left them: no such entries, no createdBy. */
async function asVersionOne(dir: string): Promise<void> {
  const store = await openEmbeddedReadStore({ path: join(dir, 'store.sqlite') });
  try {
    const stored = await store.checkpoints();
    const audit = checkpointId(auditProjector());
    const webhooks = checkpointId(webhooksProjector());
    await store
      .collection('audit_events')
      .deleteMany({ streamId: { $regex: '^(webhook|integration)-' } });
    await store.collection('webhooks').updateMany({}, { $unset: { createdBy: '' } });
    await store.deleteCheckpoint(audit);
    await store.deleteCheckpoint(webhooks);
    await store.flush(
      new Map([
        ['audit', stored.get(audit)!],
        ['webhooks', stored.get(webhooks)!],
      ]),
    );
  } finally {
    await store.close();
  }
}

/**
 * The audit read model as version 2 left it: no correlation ids, every person event under no
 * product (the PersonCreated a submission recorded was left out of its product's trail).
 */
async function asVersionTwo(dir: string): Promise<void> {
  const store = await openEmbeddedReadStore({ path: join(dir, 'store.sqlite') });
  try {
    const stored = await store.checkpoints();
    const audit = checkpointId(auditProjector());
    await store
      .collection('audit_events')
      .updateMany({ streamId: { $regex: '^person-' } }, { $set: { productKey: null } });
    await store.collection('audit_events').updateMany({}, { $unset: { correlationId: '' } });
    await store.deleteCheckpoint(audit);
    await store.flush(new Map([['audit@2', stored.get(audit)!]]));
  } finally {
    await store.close();
  }
}

describe('When a data folder audited by an earlier version starts again (e2e)', () => {
  it('places the person a submission created in its product’s trail (audit@2 → @3)', async function () {
    this.timeout(60_000);
    const dir = tempDir('audit-upgrade-');
    const env = { DATA_DIR: dir };
    try {
      const world = await startWorld({ env });
      const filed = await world.fb
        .api(world.owner.token)
        .post(`/v1/public/${SLUG}/APP/feedback`, { body: 'Dark mode', email: 'ann@customer.io' });
      expect(filed.status, JSON.stringify(filed.body)).to.be.oneOf([200, 201]);
      await world.fb.stop();
      await asVersionTwo(dir);

      const again = await startFeedback({ env });
      try {
        await again.caughtUp();
        const trail = await again
          .api(world.owner.token)
          .get(`/v1/workspaces/${SLUG}/audit?pageSize=200&productKey=APP`);
        expect(trail.status, JSON.stringify(trail.body)).to.equal(200);
        const types = trail.body.items.map((c: { type: string }) => c.type);
        expect(types).to.deep.equal(['ItemCaptured', 'PersonCreated', 'ProductCreated']);
        expect((await again.runtime.runtime.stores.readStore.checkpoints()).has('audit@2')).to.be
          .false;
      } finally {
        await again.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists its webhook and integration events and names each webhook’s maker', async function () {
    this.timeout(60_000);
    const dir = tempDir('audit-upgrade-');
    const env = { DATA_DIR: dir, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    try {
      const world = await startWorld({ env });
      const api = () => world.fb.api(world.owner.token);
      const created = await api().post(hooks(), { url: RECEIVER });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const minted = await api().post(`/v1/workspaces/${SLUG}/integrations`, { name: 'Sync' });
      expect(minted.status).to.equal(201);
      await world.fb.stop();
      await asVersionOne(dir);

      const again = await startFeedback({ env });
      try {
        await again.caughtUp();
        const owner = again.api(world.owner.token);
        const trail = await owner.get(`/v1/workspaces/${SLUG}/audit?pageSize=200`);
        expect(trail.status, JSON.stringify(trail.body)).to.equal(200);
        const types = trail.body.items.map((c: { type: string }) => c.type);
        expect(types).to.include.members(['WebhookCreated', 'IntegrationCreated']);
        expect(types).to.include('WorkspaceCreated'); // the rest is there as before
        const webhook = await owner.get(hook(created.body.webhook.id));
        expect(webhook.body.webhook.createdBy).to.equal(world.owner.userId);
        const stored = await again.runtime.runtime.stores.readStore.checkpoints();
        expect(stored.has('audit') || stored.has('webhooks')).to.equal(false);
      } finally {
        await again.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
