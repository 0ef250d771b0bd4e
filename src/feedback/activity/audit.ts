/** list_audit_events' Changes: the audit documents of a page turned into Changes, in order. */
import type { AuditDoc } from '../../../projections/audit/projector.js';
import { type ActorView, actorDescriber } from '../../../projections/people/actor.js';
import { personNamesAt } from '../../webhooks/messages/person-names.js';
import type { Change } from './change.js';
import { integrationChange } from './integration-changes.js';
import { type ActivityDeps, itemChanges } from './item-history.js';
import { webhookChange } from './webhook-changes.js';
import { workspaceChange } from './workspace-changes.js';
import type { EventStore, RecordedEvent } from '../../eventstore/types.js';

type NameAt = ReturnType<typeof personNamesAt>;

export async function auditChanges(
  deps: ActivityDeps & { eventStore: EventStore },
  workspaceId: string,
  docs: readonly AuditDoc[],
): Promise<Change[]> {
  const describe = actorDescriber(deps.readStore, workspaceId);
  const nameAt = personNamesAt(deps.eventStore);
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
    const actor = await namedThen(await describe(event.metadata), event, nameAt);
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

/**
 * A person actor, also one an OAuth client acted for, under the name they had when they acted
 * (person-names.ts), as item history and webhook messages name them: read with today's name, a
 * visitor who renamed themselves since was "Evie" on the PersonCreated that says "Eve was
 * added", beside item changes of that moment naming "Eve". A person's first event, which
 * creates them, names them as it does.
 */
async function namedThen(actor: ActorView, event: RecordedEvent, nameAt: NameAt) {
  const then = async (personId: string, name: string | null) => {
    const before = await nameAt(personId, event.position);
    const named = before === undefined ? await nameAt(personId, event.position + 1n) : before;
    return named === undefined ? name : named;
  };
  const view = { ...actor };
  if (view.kind === 'person' && view.id) view.name = await then(view.id, view.name);
  if (view.actingFor?.kind === 'person') {
    view.actingFor = {
      ...view.actingFor,
      name: await then(view.actingFor.id, view.actingFor.name),
    };
  }
  return view;
}
