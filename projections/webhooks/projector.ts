import { previousSecretsAfterRotation, type WebhookEvent } from '../../commands/webhook/index.js';
import { guardedUpdate, positionKey } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import { asRecorded } from '../shared/recorded.js';
import { FILTER_CHANGES_KEPT, type LegacyApp, WEBHOOKS, webhooksOf } from './document.js';

/**
 * Webhook configuration, one document per webhook (stream `webhook-<ws>.<id>`). Version 2 records
 * `createdBy`; version 3 `_legacyApp` (below); version 4 `_receiverSince`. A data folder projected by an earlier version is
 * replayed into it on its next start (src/read/projector-versions.ts), so webhooks made before
 * either name their maker and the app that set their URL too.
 */
export function webhooksProjector(): Projector {
  return {
    name: 'webhooks',
    version: 4,
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
      /** a change of the filters keeps the ones it replaced, for events appended before it */
      const filtersBefore = async (changed: { eventTypes?: unknown; productKeys?: unknown }) => {
        if (changed.eventTypes === undefined && changed.productKeys === undefined) return {};
        const doc = await webhooks.findOne({ _id: id });
        if (!doc) return {};
        const { eventTypes, productKeys } = doc;
        const before = { until: positionKey(event.position), eventTypes, productKeys };
        return {
          _filtersBefore: [...(doc._filtersBefore ?? []), before].slice(-FILTER_CHANGES_KEPT),
        };
      };
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
            _receiverSince: at,
            _ws: workspaceId,
            _createdPos: positionKey(event.position),
            _deleted: false,
            _secret: secret,
            _previousSecrets: [],
            _grant: grant ?? null,
            _legacyApp: grant === undefined ? legacyApp(event.metadata) : null,
          };
          await guardedUpdate(webhooks, id, event.position, { $set: doc }, { upsert: true });
          return;
        }
        case 'WebhookUpdated': {
          const { grant, ...changed } = event.data;
          const fields = { ...changed, ...(await filtersBefore(changed)) };
          // a new URL may end the receiver's failures: the five days count afresh (health.ts)
          const receiver = fields.url !== undefined ? { _receiverSince: at } : {};
          if (grant !== undefined)
            await set({ ...fields, ...receiver, _grant: grant, _legacyApp: null });
          else if (fields.url !== undefined)
            await set({ ...fields, ...receiver, _legacyApp: legacyApp(event.metadata) });
          else await set(fields);
          return;
        }
        case 'WebhookDisabled':
          await set({ enabled: false, disabledReason: event.data.reason });
          return;
        case 'WebhookEnabled':
          // resuming takes the webhook over (README, Security), as the grant's decider does
          await set({ enabled: true, disabledReason: null, _legacyApp: null, _receiverSince: at });
          return;
        case 'WebhookSecretRotated': {
          const doc = await webhooks.findOne({ _id: id });
          if (!doc) return;
          await set({
            _receiverSince: at,
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

/**
 * The app that set a webhook's URL, read from an event recorded before events carried its grant
 * (`grant` absent): such an event names the app only in its attribution label, `api:<client
 * name>`, beside the user it acted for. Without it a webhook an app set before that upgrade would
 * outlive the app's disconnection. A later event always carries the grant when an app sets the
 * URL, so a label without one is an earlier version's; any other label is the maker's own.
 */
function legacyApp(metadata: { actor: string | null; via?: string }): LegacyApp | null {
  const { actor, via } = metadata;
  if (actor === null || !via?.startsWith(API_LABEL)) return null;
  return { userId: actor, clientName: via.slice(API_LABEL.length) };
}
const API_LABEL = 'api:';
