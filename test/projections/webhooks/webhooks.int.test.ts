/**
 * The webhooks and integrations read models: the records the operations answer, the sealed
 * secrets the worker signs with, and the tombstones that keep replays from resurrecting a
 * deleted webhook. Each runs twice over the same events and changes nothing the second time.
 */
import { expect } from 'chai';
import { integrationsProjector } from '../../../projections/integrations/projector.js';
import {
  integrationByHash,
  integrationsOfWorkspace,
} from '../../../projections/integrations/queries.js';
import { positionKey } from '../../../projections/shared/guard.js';
import {
  findWebhook,
  toWebhook,
  webhooksOfWorkspace,
  webhooksProjector,
} from '../../../projections/webhooks/index.js';
import { EventLog, project, snapshot, withReadStore } from '../harness.js';

const WS = 'ws1';

function webhookLog(): EventLog {
  const log = new EventLog();
  const stream = `webhook-${WS}.wh_1`;
  const created = log.add(
    stream,
    {
      type: 'WebhookCreated',
      data: {
        webhookId: 'wh_1',
        workspaceId: WS,
        url: 'https://hooks.example.com/in',
        description: 'CRM',
        eventTypes: ['item.created'],
        productKeys: null,
        secret: 'v1.first',
      },
    },
    100,
  );
  log.add(stream, { type: 'WebhookUpdated', data: { description: 'Sales' } }, 200);
  log.add(
    stream,
    { type: 'WebhookDisabled', data: { reason: 'the receiver answered 410 Gone' } },
    300,
  );
  log.add(
    stream,
    { type: 'WebhookSecretRotated', data: { secret: 'v1.second', previousValidUntil: 999 } },
    400,
  );
  log.add(
    `webhook-${WS}.wh_2`,
    {
      type: 'WebhookCreated',
      data: { ...(created.data as object), webhookId: 'wh_2', secret: 'v1.x' } as never,
    },
    500,
  );
  log.add(`webhook-${WS}.wh_2`, { type: 'WebhookDeleted', data: {} }, 600);
  return log;
}

describe('When webhook events are projected', () => {
  it('builds the Webhook record, keeps the sealed secrets internal, and hides deleted ones', async () => {
    await withReadStore(async (store) => {
      const log = webhookLog();
      await project(webhooksProjector(), store, log.events);
      const doc = await findWebhook(store, { workspaceId: WS, webhookId: 'wh_1' });
      expect(toWebhook(doc!)).to.deep.equal({
        id: 'wh_1',
        url: 'https://hooks.example.com/in',
        description: 'Sales',
        eventTypes: ['item.created'],
        productKeys: null,
        enabled: false,
        disabledReason: 'the receiver answered 410 Gone',
        createdAt: 100,
        createdBy: 'u1',
        updatedAt: 400,
      });
      expect(doc!._secret).to.equal('v1.second');
      expect(doc!._previousSecrets).to.deep.equal([{ secret: 'v1.first', validUntil: 999 }]);
      expect(doc!._createdPos).to.equal(positionKey(log.events[0]!.position));
      expect(await findWebhook(store, { workspaceId: WS, webhookId: 'wh_2' })).to.equal(null);
      expect((await webhooksOfWorkspace(store, WS)).map((w) => w.id)).to.deep.equal(['wh_1']);
    });
  });

  it('changes nothing when the same events run twice', async () => {
    await withReadStore(async (store) => {
      const log = webhookLog();
      await project(webhooksProjector(), store, log.events);
      const first = await snapshot(webhooksProjector(), store);
      await project(webhooksProjector(), store, log.events);
      expect(await snapshot(webhooksProjector(), store)).to.deep.equal(first);
    });
  });

  // README: "two of them, space-separated, for 24 hours after a secret rotation"
  it('keeps only the secret the last rotation replaced, also when an old log is replayed', async () => {
    await withReadStore(async (store) => {
      const log = webhookLog();
      const stream = `webhook-${WS}.wh_1`;
      const rotated = (secret: string, until: number) =>
        ({ type: 'WebhookSecretRotated', data: { secret, previousValidUntil: until } }) as const;
      log.add(stream, rotated('v1.third', 1999), 700);
      log.add(stream, rotated('v1.fourth', 2999), 800);
      await project(webhooksProjector(), store, log.events);
      const doc = await findWebhook(store, { workspaceId: WS, webhookId: 'wh_1' });
      expect(doc!._secret).to.equal('v1.fourth');
      expect(doc!._previousSecrets).to.deep.equal([{ secret: 'v1.third', validUntil: 2999 }]);
    });
  });
});

describe('When integration events are projected', () => {
  function integrationLog(): EventLog {
    const log = new EventLog();
    log.add(
      'integration-int_1',
      {
        type: 'IntegrationCreated',
        data: { integrationId: 'int_1', workspaceId: WS, name: 'Zendesk', hash: 'h1' },
      },
      100,
    );
    log.add('integration-int_1', { type: 'IntegrationRevoked', data: {} }, 200);
    return log;
  }

  it('keeps the hash for look-ups and lists without it', async () => {
    await withReadStore(async (store) => {
      await project(integrationsProjector(), store, integrationLog().events);
      expect(await integrationByHash(store, 'h1')).to.include({ revoked: true, revokedAt: 200 });
      expect(await integrationsOfWorkspace(store, WS)).to.deep.equal([
        {
          id: 'int_1',
          name: 'Zendesk',
          createdAt: 100,
          createdBy: 'u1',
          revoked: true,
          revokedAt: 200,
        },
      ]);
    });
  });

  it('changes nothing when the same events run twice', async () => {
    await withReadStore(async (store) => {
      const log = integrationLog();
      await project(integrationsProjector(), store, log.events);
      const first = await snapshot(integrationsProjector(), store);
      await project(integrationsProjector(), store, log.events);
      expect(await snapshot(integrationsProjector(), store)).to.deep.equal(first);
    });
  });
});
