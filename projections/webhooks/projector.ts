import { previousSecretsAfterRotation, type WebhookEvent } from '../../commands/webhook/index.js';
import { guardedUpdate, positionKey } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import { asRecorded } from '../shared/recorded.js';
import { WEBHOOKS, webhooksOf } from './document.js';

/**
 * Webhook configuration, one document per webhook (stream `webhook-<ws>.<id>`). Version 2 records
 * `createdBy`: a data folder projected by version 1 is replayed into it on its next start
 * (src/read/projector-versions.ts), so webhooks made before it name their maker too.
 */
export function webhooksProjector(): Projector {
  return {
    name: 'webhooks',
    version: 2,
    collections: [WEBHOOKS],
    filter: { streamPrefixes: ['webhook-'] },
    async setup(store) {
      await webhooksOf(store).createIndex({ keys: { _ws: 1, createdAt: 1 }, name: 'webhooks_ws' });
    },
    async apply(raw, store) {
      const event = asRecorded<WebhookEvent>(raw);
      const id = event.streamId.slice('webhook-'.length);
      const at = event.metadata.occurredAt;
      const webhooks = webhooksOf(store);
      const set = (fields: Record<string, unknown>) =>
        guardedUpdate(webhooks, id, event.position, { $set: { ...fields, updatedAt: at } });
      switch (event.type) {
        case 'WebhookCreated': {
          const { webhookId, workspaceId, secret, grant, ...fields } = event.data;
          const doc = {
            id: webhookId,
            ...fields,
            enabled: true,
            disabledReason: null,
            createdAt: at,
            createdBy: event.metadata.actor,
            updatedAt: at,
            _ws: workspaceId,
            _createdPos: positionKey(event.position),
            _deleted: false,
            _secret: secret,
            _previousSecrets: [],
            _grant: grant ?? null,
          };
          await guardedUpdate(webhooks, id, event.position, { $set: doc }, { upsert: true });
          return;
        }
        case 'WebhookUpdated': {
          const { grant, ...fields } = event.data;
          await set(grant === undefined ? fields : { ...fields, _grant: grant });
          return;
        }
        case 'WebhookDisabled':
          await set({ enabled: false, disabledReason: event.data.reason });
          return;
        case 'WebhookEnabled':
          await set({ enabled: true, disabledReason: null });
          return;
        case 'WebhookSecretRotated': {
          const doc = await webhooks.findOne({ _id: id });
          if (!doc) return;
          await set({
            _secret: event.data.secret,
            _previousSecrets: previousSecretsAfterRotation(
              doc._secret,
              event.data.previousValidUntil,
            ),
          });
          return;
        }
        case 'WebhookDeleted':
          await set({ _deleted: true, enabled: false });
          return;
        default: {
          const _exhaustive: never = event;
        }
      }
    },
  };
}
