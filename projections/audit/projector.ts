/**
 * The workspace audit trail (list_audit_events): one small document per event of a workspace's
 * streams — its workspace, products, items, people and changelog entries, and its configuration:
 * webhooks (where its messages go) and integration credentials (who may write into it) —
 * carrying what the audit filters on. The Change itself (names, sentence, field changes) is
 * built when read, from the event, by the same code as item history; nothing of an event's data
 * is copied here, so no secret or credential hash reaches this read model.
 *
 * Webhook and integration events name no product (`productKey` null): they configure the whole
 * workspace, so a product filter leaves them out.
 *
 * Left out: ItemNumberAllocated (the product handing out a number; the capture that follows is
 * the change), and streams outside workspaces (users, tokens, notes).
 *
 * A person's events belong to no product, except those a submission or a +1 on a product's item
 * recorded (the person it created, or what it learned of them): they are that product's, as
 * the item event is (personOfItemEvent below), so an auditor filtering by product sees who
 * submitted and how they came to be known. The request is told by its correlation id (one
 * request's events share it and no other's can); the person's events come first (submit.ts),
 * so the item event places them when it arrives.
 *
 * Version 2 added the webhook and integration streams, version 3 the correlation id and the
 * people placed in a product, version 4 the credential a change came through: a data folder
 * audited by an older version is replayed into this one on its next start
 * (src/read/projector-versions.ts).
 */
import { parseItemStreamId } from '../../commands/item/index.js';
import { personStreamId } from '../../commands/person/index.js';
import type { Collection, Doc, ReadStore } from '../../src/readstore/types.js';
import { insertOnce, positionKey } from '../shared/guard.js';
import { SKIPPED_TYPES } from './event-types.js';
import type { Projector } from '../shared/projector.js';

export interface AuditDoc extends Doc {
  _ws: string;
  /** positionKey(position): fixed width, so string order is log order */
  position: string;
  streamId: string;
  revision: number;
  type: string;
  itemKey: string | null;
  productKey: string | null;
  actorId: string | null;
  via: string | null;
  /** the token, OAuth client or integration credential it came through (metadata.credentialId) */
  credentialId: string | null;
  occurredAt: number;
  /** the request's (server's) correlation id; null on an event that carries none */
  correlationId: string | null;
}

export const AUDIT = 'audit_events';
export const auditOf = (s: ReadStore): Collection<AuditDoc> => s.collection(AUDIT);

export function auditProjector(): Projector {
  return {
    name: 'audit',
    version: 4,
    collections: [AUDIT],
    filter: {
      streamPrefixes: [
        'workspace-',
        'product-',
        'item-',
        'person-',
        'changelog-',
        'webhook-',
        'integration-',
      ],
    },
    async setup(store) {
      await auditOf(store).createIndex({ keys: { _ws: 1, position: -1 }, name: 'audit_ws' });
      await auditOf(store).createIndex({
        keys: { streamId: 1, revision: 1 },
        name: 'audit_stream',
      });
    },
    async apply(event, store) {
      if (SKIPPED_TYPES.has(event.type)) return;
      const where = await placeOf(event, store);
      if (!where) return;
      const key = positionKey(event.position);
      const { correlationId } = event.metadata;
      const productKey = where.itemKey
        ? where.itemKey.slice(0, where.itemKey.indexOf('-'))
        : where.productKey;
      const personId = event.streamId.startsWith('item-') ? personOfItemEvent(event) : null;
      if (personId && productKey && typeof correlationId === 'string') {
        // the person's events this request recorded before it reached the item (idempotent);
        // placed first, so a page that shows the item event shows them in the product as well;
        // found by the person's stream (audit_stream), one workspace's alone: with `_ws` in the
        // filter the embedded store would walk the workspace's whole trail (audit_ws) per capture
        await auditOf(store).updateMany(
          {
            streamId: personStreamId(personId),
            correlationId,
            productKey: null,
          },
          { $set: { productKey } },
        );
      }
      await insertOnce(
        auditOf(store),
        {
          _id: key,
          _ws: where.workspaceId,
          position: key,
          streamId: event.streamId,
          revision: event.revision,
          type: event.type,
          itemKey: where.itemKey,
          productKey,
          actorId: event.metadata.actor,
          via: event.metadata.via ?? null,
          credentialId: event.metadata.credentialId ?? null,
          occurredAt: event.metadata.occurredAt,
          correlationId: typeof correlationId === 'string' ? correlationId : null,
        },
        event.position,
      );
    },
  };
}

/** The person an item event is by, who a submission or a +1 may have registered first. */
function personOfItemEvent(event: { type: string; data: unknown }): string | null {
  const data = event.data as { personId?: unknown; author?: { personId?: unknown } };
  const personId =
    event.type === 'ItemCaptured'
      ? data.author?.personId
      : event.type === 'PlusOneAdded' || event.type === 'PlusOneWithdrawn'
        ? data.personId
        : undefined;
  return typeof personId === 'string' ? personId : null;
}

interface Place {
  workspaceId: string;
  itemKey: string | null;
  productKey: string | null;
}

async function placeOf(
  event: { streamId: string; revision: number; data: unknown },
  store: ReadStore,
): Promise<Place | null> {
  const { streamId } = event;
  const dash = streamId.indexOf('-');
  const kind = streamId.slice(0, dash);
  const rest = streamId.slice(dash + 1);
  switch (kind) {
    case 'item': {
      const item = parseItemStreamId(streamId);
      return item && { workspaceId: item.workspaceId, itemKey: item.itemKey, productKey: null };
    }
    case 'webhook':
    case 'changelog':
    case 'product': {
      const dot = rest.indexOf('.');
      if (dot < 0) return null;
      const tail = rest.slice(dot + 1);
      return {
        workspaceId: rest.slice(0, dot),
        itemKey: kind === 'changelog' ? tail : null,
        productKey: kind === 'product' ? tail : null,
      };
    }
    case 'workspace':
      return { workspaceId: rest, itemKey: null, productKey: null };
    case 'integration':
    case 'person': {
      // these streams open with an event naming the workspace (PersonCreated, IntegrationCreated)
      if (event.revision === 0) {
        const workspaceId = (event.data as { workspaceId?: unknown }).workspaceId;
        return typeof workspaceId === 'string'
          ? { workspaceId, itemKey: null, productKey: null }
          : null;
      }
      const first = await auditOf(store).findOne({ streamId, revision: 0 });
      return first && { workspaceId: first._ws, itemKey: null, productKey: null };
    }
    default:
      return null;
  }
}
