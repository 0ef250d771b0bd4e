/**
 * The audit trail's read model over a workspace's configuration streams (projections/audit):
 * "one small document per event of a workspace's streams — ... and its configuration: webhooks
 * and integration credentials"; "Webhook and integration events name no product"; "nothing of
 * an event's data is copied here, so no secret or credential hash reaches this read model".
 * Runs twice over the same events and changes nothing the second time. A person's events belong
 * to the product of the item event their request recorded with them (the correlation id).
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

/** Ann files APP-1 (created with it), then +1s OTH-1 in a request of its own. */
function captureLog(): EventLog {
  const log = new EventLog();
  const inRequest = (correlationId: string, event: ReturnType<EventLog['add']>) => {
    event.metadata.correlationId = correlationId;
  };
  const person = { personId: 'p1', workspaceId: WS, tier: 'email', avatar: null };
  inRequest(
    'r1',
    log.add('person-p1', {
      type: 'PersonCreated',
      data: { ...person, displayName: 'Ann', email: 'ann@example.com' },
    }),
  );
  const author = { personId: 'p1', tier: 'email', displayName: 'Ann', avatar: null };
  const captured = { workspaceId: WS, number: 1, title: 'Dark', body: 'Dark', author };
  inRequest(
    'r1',
    log.add(`item-${WS}.APP-1`, {
      type: 'ItemCaptured',
      data: { ...captured, productKey: 'APP', itemKey: 'APP-1' },
    }),
  );
  inRequest('r2', log.add('person-p1', { type: 'PersonUpdated', data: { displayName: 'Annie' } }));
  inRequest(
    'r3',
    log.add(`item-${WS}.OTH-1`, {
      type: 'PlusOneAdded',
      data: { personId: 'p1', addressedTo: 'OTH-1' },
    }),
  );
  return log;
}

describe('When a submission creates the person who files it', () => {
  it('places the person’s events of that request in the item’s product, and no others', async () => {
    await withReadStore(async (store) => {
      const log = captureLog();
      await project(auditProjector(), store, log.events);
      const docs = await store.collection(AUDIT).find({}, { sort: { position: 1 } });
      expect(docs.map((d) => [d.type, d.productKey, d.correlationId])).to.deep.equal([
        ['PersonCreated', 'APP', 'r1'],
        ['ItemCaptured', 'APP', 'r1'],
        ['PersonUpdated', null, 'r2'],
        ['PlusOneAdded', 'OTH', 'r3'],
      ]);
      const first = await snapshot(auditProjector(), store);
      await project(auditProjector(), store, log.events);
      expect(await snapshot(auditProjector(), store)).to.deep.equal(first);
    });
  });
});
