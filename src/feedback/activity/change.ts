/**
 * The `Change` record of item history and the audit trail (issue 15): one event, who did it and
 * through what, one readable sentence, and the fields it changed.
 *
 * For an item event, `changes` compares the item as it stood just before and just after the
 * event (the read model rebuilt by timeline.ts): get_item's Item fields except `updatedAt` (every
 * event moves it) and the opaque `rank`, plus `mergedInto` (the item it lives on in) and
 * `participants` (how many people are on it). So the diff says what an auditor would see change,
 * and is computed by the same projectors that build get_item.
 */
import { type ItemDoc, toItem } from '../../../projections/items/document.js';
import type { RecordedEvent } from '../../eventstore/types.js';
import type { ActorView } from '../../../projections/people/actor.js';

export interface FieldChange {
  from: unknown;
  to: unknown;
}

export interface Change {
  /** the event's revision in its own stream (for item history: the item's revision) */
  revision: number;
  /** the event's position in the whole log, as a string (it may exceed 2^53) */
  position: string;
  type: string;
  occurredAt: number;
  /** the item the event belongs to; null for workspace, product, people, webhook and integration events */
  itemKey: string | null;
  actor: ActorView;
  via?: string;
  /** the credential's id (EventMetadata.credentialId), when the event records one */
  credentialId?: string;
  correlationId: string;
  /** the client's own `x-correlation-id` for the request, when it sent one: its claim only */
  clientCorrelationId?: string;
  /**
   * true on a step of an interrupted request that was finished after it (continued.ts): by the
   * restart's recovery, or by a later request that needed it finished; absent otherwise
   */
  finishedAfterInterruption?: true;
  summary: string;
  changes: Record<string, FieldChange>;
}

export type ItemView = Record<string, unknown>;

export function itemView(doc: ItemDoc | null): ItemView | null {
  if (!doc) return null;
  const { updatedAt: _updatedAt, rank: _rank, ...fields } = toItem(doc);
  return { ...fields, mergedInto: doc._mergedInto, participants: doc._participants.length };
}

/** The fields whose values differ (deep), from `before` (null: nothing yet) to `after`. */
export function diff(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    const from = before?.[key] ?? null;
    const to = after?.[key] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from, to };
  }
  return changes;
}

export function changeOf(
  event: RecordedEvent,
  details: {
    itemKey: string | null;
    actor: ActorView;
    summary: string;
    changes: Record<string, FieldChange>;
  },
): Change {
  const { metadata } = event;
  const change: Change = {
    revision: event.revision,
    position: event.position.toString(),
    type: event.type,
    occurredAt: metadata.occurredAt,
    itemKey: details.itemKey,
    actor: details.actor,
    correlationId: metadata.correlationId,
    summary: details.summary,
    changes: details.changes,
  };
  if (metadata.via) change.via = metadata.via;
  if (metadata.credentialId) change.credentialId = metadata.credentialId;
  if (metadata.clientCorrelationId) change.clientCorrelationId = metadata.clientCorrelationId;
  // only the recovery of an interrupted request names a cause (continued.ts)
  if (metadata.causationId) change.finishedAfterInterruption = true;
  return change;
}

/**
 * How a sentence names the actor: by name, a word for its kind when no name is known, and for
 * an OAuth client also whom it acted for ("Claude acting for max").
 */
export function actorWord(actor: ActorView): string {
  if (!actor.actingFor) return kindWord(actor);
  const { actingFor } = actor;
  const whom = actingFor.name ?? (actingFor.kind === 'person' ? 'a person' : 'a maker');
  return `${kindWord(actor)} acting for ${whom}`;
}

function kindWord(actor: ActorView): string {
  if (actor.name) return actor.name;
  switch (actor.kind) {
    case 'system':
      return 'The system';
    case 'agent':
      return 'An agent';
    case 'person':
      return 'A person';
    case 'maker':
      return 'A maker';
    default: {
      const _exhaustive: never = actor.kind;
      return 'Someone';
    }
  }
}
