import type { Filter, ReadStore } from '../../src/readstore/types.js';
import { integrationsOf } from '../integrations/projector.js';
import { peopleOf } from '../people/projector.js';
import { membershipId, membershipsOf } from '../workspaces/projector.js';
import { type AuditDoc, auditOf } from './projector.js';

export interface AuditFilters {
  actorId?: string;
  via?: string;
  credentialId?: string;
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
  if (query.credentialId !== undefined) filter.credentialId = query.credentialId;
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

/**
 * Whether `actorId` names someone of this workspace: a member (also a former one), a person, an
 * integration credential, or any actor its trail records. An `actorId` filter naming no one
 * would answer an empty page, read as "they did nothing" (a typo reads the same), so
 * list_audit_events answers 404 instead. Only this workspace's records are asked, so the
 * answer says nothing of users, people or credentials elsewhere.
 */
export async function isActorOf(
  store: ReadStore,
  workspaceId: string,
  actorId: string,
): Promise<boolean> {
  const found = await Promise.all([
    membershipsOf(store).findOne({ _id: membershipId(workspaceId, actorId) }),
    peopleOf(store).findOne({ _id: actorId, _ws: workspaceId }),
    integrationsOf(store).findOne({ _id: actorId, workspaceId }),
  ]);
  if (found.some(Boolean)) return true;
  return (await auditOf(store).findOne({ _ws: workspaceId, actorId })) !== null;
}

/**
 * Whether any change of this workspace came through `credentialId`, or it is one of the
 * workspace's integration credentials: as with `actorId`, a filter naming a credential that
 * never reached the workspace (or a typo) answers 404, not an empty page read as "it did nothing".
 */
export async function isCredentialOf(
  store: ReadStore,
  workspaceId: string,
  credentialId: string,
): Promise<boolean> {
  if (await integrationsOf(store).findOne({ _id: credentialId, workspaceId })) return true;
  return (await auditOf(store).findOne({ _ws: workspaceId, credentialId })) !== null;
}
