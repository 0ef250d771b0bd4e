/** list_audit_events' Changes: the audit documents of a page turned into Changes, in order. */
import type { AuditDoc } from '../../../projections/audit/projector.js';
import { actorDescriber } from '../../../projections/people/actor.js';
import type { Change } from './change.js';
import { integrationChange } from './integration-changes.js';
import { type ActivityDeps, itemChanges } from './item-history.js';
import { webhookChange } from './webhook-changes.js';
import { workspaceChange } from './workspace-changes.js';
import type { EventStore } from '../../eventstore/types.js';

export async function auditChanges(
  deps: ActivityDeps & { eventStore: EventStore },
  workspaceId: string,
  docs: readonly AuditDoc[],
): Promise<Change[]> {
  const describe = actorDescriber(deps.readStore, workspaceId);
  const byPosition = new Map<string, Change>();
  const itemRevisions = new Map<string, number[]>();
  for (const doc of docs) {
    if (doc.streamId.startsWith('item-') && doc.itemKey) {
      itemRevisions.set(doc.itemKey, [...(itemRevisions.get(doc.itemKey) ?? []), doc.revision]);
    }
  }
  for (const [itemKey, revisions] of itemRevisions) {
    const changes = await itemChanges(deps, workspaceId, itemKey, revisions, describe);
    for (const change of changes) byPosition.set(change.position, change);
  }
  const streams = new Map<string, Awaited<ReturnType<EventStore['readStream']>>>();
  for (const doc of docs) {
    if (doc.streamId.startsWith('item-')) continue;
    let events = streams.get(doc.streamId);
    if (!events || events.length <= doc.revision) {
      events = await deps.eventStore.readStream(doc.streamId);
      streams.set(doc.streamId, events);
    }
    const event = events[doc.revision];
    if (!event) continue;
    const earlier = events.slice(0, doc.revision);
    const actor = await describe(event.metadata);
    // webhooks and integration credentials carry secrets: their own renderers pick the fields
    const change = doc.streamId.startsWith('webhook-')
      ? webhookChange(event, earlier, actor)
      : doc.streamId.startsWith('integration-')
        ? integrationChange(event, earlier, actor)
        : await workspaceChange(deps.readStore, event, earlier, actor, doc.itemKey);
    byPosition.set(change.position, change);
  }
  const ordered: Change[] = [];
  for (const doc of docs) {
    const change = byPosition.get(BigInt(`0x${doc.position}`).toString());
    if (change) ordered.push(change);
  }
  return ordered;
}
