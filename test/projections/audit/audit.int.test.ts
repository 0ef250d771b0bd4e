/**
 * The audit trail's read model over a workspace's configuration streams (projections/audit):
 * "one small document per event of a workspace's streams — ... and its configuration: webhooks
 * and integration credentials"; "Webhook and integration events name no product"; "nothing of
 * an event's data is copied here, so no secret or credential hash reaches this read model".
 * Runs twice over the same events and changes nothing the second time.
 */
import { expect } from 'chai';
import { AUDIT, auditProjector } from '../../../projections/audit/projector.js';
import { EventLog, project, snapshot, withReadStore } from '../harness.js';

const WS = 'ws1';
const SEALED = 'v1.sealed-secret';
const ROTATED = 'v1.rotated-secret';
const HASH = 'f'.repeat(64);

function configurationLog(): EventLog {
  const log = new EventLog();
  const webhook = `webhook-${WS}.wh_1`;
  log.add(webhook, {
    type: 'WebhookCreated',
    data: {
      webhookId: 'wh_1',
      workspaceId: WS,
      url: 'https://hooks.example.com/in',
      description: '',
      eventTypes: null,
      productKeys: ['APP'],
      secret: SEALED,
      grant: null,
    },
  });
  log.add(webhook, {
    type: 'WebhookSecretRotated',
    data: { secret: ROTATED, previousValidUntil: 9 },
  });
  log.add(webhook, { type: 'WebhookDeleted', data: {} });
  log.add('integration-int_1', {
    type: 'IntegrationCreated',
    data: { integrationId: 'int_1', workspaceId: WS, name: 'Sync', hash: HASH },
  });
  log.add('integration-int_1', { type: 'IntegrationRevoked', data: {} });
  return log;
}

describe('When webhook and integration events are audited', () => {
  it('records each in its workspace, under no product, without a secret or hash', async () => {
    await withReadStore(async (store) => {
      await project(auditProjector(), store, configurationLog().events);
      const docs = await store.collection(AUDIT).find({}, { sort: { position: 1 } });
      expect(docs.map((d) => [d.type, d._ws, d.productKey, d.itemKey, d.actorId])).to.deep.equal([
        ['WebhookCreated', WS, null, null, 'u1'],
        ['WebhookSecretRotated', WS, null, null, 'u1'],
        ['WebhookDeleted', WS, null, null, 'u1'],
        ['IntegrationCreated', WS, null, null, 'u1'],
        ['IntegrationRevoked', WS, null, null, 'u1'],
      ]);
      const text = JSON.stringify(docs);
      for (const value of [SEALED, ROTATED, HASH]) expect(text).not.to.include(value);
    });
  });

  it('changes nothing when the same events run twice', async () => {
    await withReadStore(async (store) => {
      const log = configurationLog();
      await project(auditProjector(), store, log.events);
      const first = await snapshot(auditProjector(), store);
      await project(auditProjector(), store, log.events);
      expect(await snapshot(auditProjector(), store)).to.deep.equal(first);
    });
  });
});
