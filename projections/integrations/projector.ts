import type { IntegrationEvent } from '../../commands/integration/index.js';
import type { Collection, Doc, ReadStore } from '../../src/readstore/types.js';
import { guardedUpdate } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import { asRecorded } from '../shared/recorded.js';

export interface IntegrationDoc extends Doc {
  id: string;
  name: string;
  workspaceId: string;
  /** SHA-256 of the credential; the value itself is never stored */
  hash: string;
  /** who created it */
  createdBy: string | null;
  createdAt: number;
  revoked: boolean;
  revokedAt: number | null;
}

export const INTEGRATIONS = 'integrations';
export const integrationsOf = (s: ReadStore): Collection<IntegrationDoc> =>
  s.collection(INTEGRATIONS);

export function integrationsProjector(): Projector {
  return {
    name: 'integrations',
    collections: [INTEGRATIONS],
    filter: { streamPrefixes: ['integration-'] },
    async setup(store) {
      await integrationsOf(store).createIndex({ keys: { hash: 1 }, name: 'integrations_hash' });
      await integrationsOf(store).createIndex({
        keys: { workspaceId: 1, createdAt: 1 },
        name: 'integrations_ws',
      });
    },
    async apply(raw, store) {
      const event = asRecorded<IntegrationEvent>(raw);
      const id = event.streamId.slice('integration-'.length);
      const at = event.metadata.occurredAt;
      switch (event.type) {
        case 'IntegrationCreated': {
          const { integrationId, ...fields } = event.data;
          const set = {
            id: integrationId,
            ...fields,
            createdBy: event.metadata.actor,
            createdAt: at,
            revoked: false,
            revokedAt: null,
          };
          await guardedUpdate(
            integrationsOf(store),
            id,
            event.position,
            { $set: set },
            { upsert: true },
          );
          return;
        }
        case 'IntegrationRevoked':
          await guardedUpdate(integrationsOf(store), id, event.position, {
            $set: { revoked: true, revokedAt: at },
          });
          return;
        default: {
          const _exhaustive: never = event;
        }
      }
    },
  };
}
