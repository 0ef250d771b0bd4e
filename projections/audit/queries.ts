import type { Filter, ReadStore } from '../../src/readstore/types.js';
import { type AuditDoc, auditOf } from './projector.js';

export interface AuditFilters {
  actorId?: string;
  via?: string;
  type?: string;
  productKey?: string;
  /** occurredAt at or after (ms) */
  from?: number;
  /** occurredAt at or before (ms) */
  to?: number;
}

/**
 * list_audit_events: the workspace's events newest first, every filter combined (AND), keyset
 * paging over the log position (new events sort before every cursor, so a walk never repeats
 * or skips one).
 */
export async function listAuditEvents(
  store: ReadStore,
  query: AuditFilters & { workspaceId: string; before?: string | null; limit: number },
): Promise<{ events: AuditDoc[]; nextBefore: string | null }> {
  const filter: Filter = { _ws: query.workspaceId };
  if (query.actorId !== undefined) filter.actorId = query.actorId;
  if (query.via !== undefined) filter.via = query.via;
  if (query.type !== undefined) filter.type = query.type;
  if (query.productKey !== undefined) filter.productKey = query.productKey;
  if (query.from !== undefined || query.to !== undefined) {
    filter.occurredAt = {
      ...(query.from !== undefined ? { $gte: query.from } : {}),
      ...(query.to !== undefined ? { $lte: query.to } : {}),
    };
  }
  if (query.before) filter.position = { $lt: query.before };
  const docs = await auditOf(store).find(filter, {
    sort: { position: -1 },
    limit: query.limit + 1,
  });
  const events = docs.slice(0, query.limit);
  return { events, nextBefore: docs.length > query.limit ? events.at(-1)!.position : null };
}
