/**
 * What an event line of an export must be, beyond its place in the hash chain (whoever wrote the
 * file can compute hashes): one an export writes — a stream of this workspace (its webhooks and
 * their roster included), its people, integrations or users (never a user's token: those
 * credentials stay with their instance) — at the next revision of its
 * stream, under an id used once, of an event type that stream holds, with data of that type's
 * shape (after upcasting, as every reader sees it) and the metadata every reader relies on. An
 * import that stopped half-way on such a line would leave an instance it cannot be run again
 * into; one that wrote it would leave projectors stuck on it.
 */
import { changelogEventSchemas } from '../../../commands/changelog/index.js';
import { integrationEventSchemas } from '../../../commands/integration/index.js';
import { itemEventSchemas } from '../../../commands/item/index.js';
import { personEventSchemas } from '../../../commands/person/index.js';
import { productEventSchemas } from '../../../commands/product/index.js';
import { domainEventVersions } from '../../../commands/upcasters.js';
import { userEventSchemas } from '../../../commands/user/index.js';
import { webhookEventSchemas } from '../../../commands/webhook/index.js';
import { webhookRosterEventSchemas } from '../../../commands/webhook/roster.js';
import { workspaceEventSchemas } from '../../../commands/workspace/index.js';
import type { ExportEvent } from './format.js';

type Schemas = Record<string, { safeParse(data: unknown): { success: boolean } }>;

/** The streams of a workspace export, by prefix, with the event types each holds. */
function streamKinds(workspaceId: string): { owns(streamId: string): boolean; schemas: Schemas }[] {
  const under = (kind: string) => (s: string) => s.startsWith(`${kind}${workspaceId}.`);
  return [
    { owns: (s) => s === `workspace-${workspaceId}`, schemas: workspaceEventSchemas },
    { owns: under('product-'), schemas: productEventSchemas },
    { owns: under('item-'), schemas: itemEventSchemas },
    { owns: under('changelog-'), schemas: changelogEventSchemas },
    { owns: under('webhook-'), schemas: webhookEventSchemas },
    { owns: (s) => s === `webhookroster-${workspaceId}`, schemas: webhookRosterEventSchemas },
    { owns: (s) => s.startsWith('person-'), schemas: personEventSchemas },
    { owns: (s) => s.startsWith('integration-'), schemas: integrationEventSchemas },
    { owns: (s) => s.startsWith('user-'), schemas: userEventSchemas },
  ];
}

/** A check of one file's events in order: the problem with the next one, or null. */
export function eventCheck(workspaceId: string): (event: ExportEvent) => string | null {
  const kinds = streamKinds(workspaceId);
  const versions = domainEventVersions();
  const nextRevision = new Map<string, number>();
  const ids = new Set<string>();
  return (event) => {
    const { streamId, position } = event;
    const kind = kinds.find((k) => k.owns(streamId));
    if (!kind) return `stream ${streamId} is not part of workspace ${workspaceId}`;
    const expected = nextRevision.get(streamId) ?? 0;
    if (event.revision !== expected) {
      return `the event at position ${position} has revision ${event.revision} of ${streamId}; the stream's next is ${expected}`;
    }
    if (ids.has(event.id)) return `the event at position ${position} repeats the id ${event.id}`;
    let data: unknown;
    let metadata: Record<string, unknown> | null;
    try {
      data = JSON.parse(event.data);
      metadata = JSON.parse(event.metadata);
    } catch {
      return `the event at position ${position} has data or metadata that is not JSON`;
    }
    const m = metadata;
    const valid =
      m !== null &&
      typeof m === 'object' &&
      typeof m.occurredAt === 'number' &&
      typeof m.correlationId === 'string' &&
      (m.actor === null || typeof m.actor === 'string');
    if (!valid) {
      return `the event at position ${position} lacks its metadata (actor, occurredAt, correlationId)`;
    }
    const schema = kind.schemas[event.type];
    if (!schema)
      return `the event at position ${position} has a type ${streamId} never holds: ${event.type}`;
    // read as every reader reads it (commands/shared/versions.ts): absent or null is version 1
    const version = m.schemaVersion ?? 1;
    if (!Number.isInteger(version) || (version as number) < 1) {
      return `the event at position ${position} has a schemaVersion that is not a version number`;
    }
    if ((version as number) > versions.current(event.type)) {
      return `the event at position ${position} is ${event.type} version ${version}, newer than this instance knows`;
    }
    let current: { data: unknown };
    try {
      current = versions.upcast({ type: event.type, data, metadata: m, streamId });
    } catch {
      return `the event at position ${position} cannot be read as ${event.type} version ${version}`;
    }
    if (!schema.safeParse(current.data).success) {
      return `the event at position ${position} (${event.type}) has data of another shape`;
    }
    nextRevision.set(streamId, expected + 1);
    ids.add(event.id);
    return null;
  };
}
